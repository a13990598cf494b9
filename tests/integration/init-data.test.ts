/**
 * Telegram init data is parsed with no prototype (docs/security.md): an unsigned `__proto__` parameter is a
 * field like any other, so it breaks the signature, and a repeated key is refused.
 */
import { describe, expect, it } from "vitest";
import { signInitData, validateInitData } from "../../server/src/security/telegram-init-data";

const BOT_TOKEN = "7000000001:AAF-test-token-for-init-data-parsing";
const now = new Date("2026-06-01T06:00:00Z");
const signed = () => signInitData({ user: { id: 42, first_name: "Aigerim" }, authDate: now }, BOT_TOKEN);

describe("init data parsing", () => {
  it("accepts the signed data as it is", () => {
    expect(validateInitData(signed(), BOT_TOKEN, 3600, now).ok).toBe(true);
  });

  it("refuses an unsigned __proto__ parameter, wherever it stands", () => {
    const raw = signed();
    for (const variant of [`${raw}&__proto__=x`, `__proto__=x&${raw}`, `${raw}&__proto__=%7B%7D`]) {
      const result = validateInitData(variant, BOT_TOKEN, 3600, now);
      expect(result.ok, variant).toBe(false);
    }
  });

  it("refuses a repeated key", () => {
    const raw = signed();
    const result = validateInitData(`${raw}&auth_date=1`, BOT_TOKEN, 3600, now);
    expect(result).toMatchObject({ ok: false, reason: "malformed" });
  });
});
