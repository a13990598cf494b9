/**
 * The kept user is read at a signed-in launch without zod (`lib/kept-user.ts`): its check must say exactly what
 * the contract's `User` schema says, or a launch would show a user the schema refuses (or sign out one it takes).
 */
import { LANGUAGES, User } from "@contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KEPT_USER_FIELDS, keptUser } from "@/lib/kept-user";
import { DEMO_USER } from "./test-utils";

const nullableString = fc.option(fc.string(), { nil: null });
const validUser = fc.record({
  id: fc.string(),
  login: fc.string(),
  fullName: nullableString,
  email: nullableString,
  phone: nullableString,
  phoneConfirmed: fc.boolean(),
  telegramLinked: fc.boolean(),
  language: fc.constantFrom(...LANGUAGES),
  avatarUrl: nullableString,
  createdAt: fc.string(),
  subscription: fc.record({ active: fc.boolean(), until: nullableString }),
  notifications: fc.record({ unread: fc.nat() }),
});
/** Values a kept field may hold after a change of the contract or a damaged storage. */
const odd = fc.oneof(
  fc.constantFrom(undefined, null, "", "xx", 0, -1, 1.5, -0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60, true),
  fc.constantFrom({}, [], { active: true }, { unread: 1 }, { active: "yes", until: null }, { unread: -3 }),
  fc.anything(),
);
const FIELDS = Object.keys(KEPT_USER_FIELDS);
/** A valid user with one field (or one nested field) replaced, removed, or an extra field added. */
const changedUser = fc
  .tuple(
    validUser,
    fc.constantFrom(...FIELDS, "subscription.active", "subscription.until", "notifications.unread", "extra"),
    odd,
  )
  .map(([user, path, value]) => {
    const copy: Record<string, unknown> = structuredClone(user);
    const [field, nested] = path.split(".") as [string, string | undefined];
    if (nested) (copy[field] as Record<string, unknown>)[nested] = value;
    else if (value === undefined) delete copy[field];
    else copy[field] = value;
    return copy;
  });

describe("the kept user's check without zod", () => {
  it("checks every field of the contract's User", () => {
    expect(Object.keys(KEPT_USER_FIELDS).sort()).toEqual(Object.keys(User.shape).sort());
  });

  it("takes and refuses exactly what User takes and refuses, and keeps what it keeps", () => {
    fc.assert(
      fc.property(fc.oneof(validUser, changedUser, fc.anything()), (value) => {
        const parsed = User.safeParse(value);
        expect(keptUser(value)).toEqual(parsed.success ? parsed.data : null);
      }),
      { numRuns: 2000 },
    );
  });

  it("takes every language of the contract and no other", () => {
    for (const language of [...LANGUAGES, "xx", "EN", "kz", ""])
      expect(keptUser({ ...DEMO_USER, language }) !== null).toBe(User.safeParse({ ...DEMO_USER, language }).success);
  });

  it("takes the demo user and drops fields the contract does not have", () => {
    expect(keptUser({ ...DEMO_USER, password: "x", notifications: { unread: 2, extra: 1 } })).toEqual({
      ...DEMO_USER,
      notifications: { unread: 2 },
    });
    expect(keptUser({ id: 1 })).toBeNull();
  });
});
