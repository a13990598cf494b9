/**
 * The user a previous visit kept in local storage, checked without the contract's code: the contract's `User`
 * schema needs zod (about 27 KB gzip), and a signed-in launch reads the kept user before anything shows. This
 * check says yes exactly when `User` does (`tests/unit/kept-user.test.ts` holds the two equal on generated
 * users) and, as zod does, keeps only the schema's fields.
 */
import type { Language, User } from "@contract";

/** The contract's languages, written out: its values file would bring every enumeration to the first screen. */
const LANGUAGES = ["en", "ru", "de", "kk"] as const satisfies readonly Language[];

type Check = (value: unknown) => boolean;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const string: Check = (value) => typeof value === "string";
const nullableString: Check = (value) => value === null || typeof value === "string";
const boolean: Check = (value) => typeof value === "boolean";

/** Each field of `User` and its check (the nested objects' own fields are checked, and kept, below). */
export const KEPT_USER_FIELDS: { [K in keyof User]-?: Check } = {
  id: string,
  login: string,
  fullName: nullableString,
  email: nullableString,
  phone: nullableString,
  phoneConfirmed: boolean,
  telegramLinked: boolean,
  language: (value) => (LANGUAGES as readonly unknown[]).includes(value),
  avatarUrl: nullableString,
  createdAt: string,
  subscription: (value) => isObject(value) && boolean(value.active) && nullableString(value.until),
  notifications: (value) => isObject(value) && Number.isSafeInteger(value.unread) && (value.unread as number) >= 0,
};

/** The kept user when it fits the contract's `User` (its fields only), else null. */
export function keptUser(value: unknown): User | null {
  if (!isObject(value)) return null;
  const user: Record<string, unknown> = {};
  for (const [field, check] of Object.entries(KEPT_USER_FIELDS)) {
    if (!check(value[field])) return null;
    user[field] = value[field];
  }
  const { subscription, notifications } = user as User;
  return {
    ...(user as User),
    subscription: { active: subscription.active, until: subscription.until },
    notifications: { unread: notifications.unread },
  };
}
