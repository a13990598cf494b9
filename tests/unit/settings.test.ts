import { SettingReply, TechnicalWorkReply, TelegramAuthAvailableReply } from "@contract";
import { describe, expect, it } from "vitest";
import { readSettingReply, readTelegramAuthAvailable } from "@/features/settings/api/public-settings";
import {
  botLink,
  miniAppLink,
  settingsQueries,
  TECHNICAL_WORK_POLL_OFF_MS,
  TECHNICAL_WORK_POLL_ON_MS,
  technicalWorkPollInterval,
} from "@/features/settings/api/settings-queries";
import { readTechnicalWork } from "@/features/settings/api/technical-work";

const MESSAGE = { en: "Back at 12:00", ru: "Вернёмся в 12:00", de: "Zurück um 12:00", kk: "12:00-де ораламыз" };

describe("maintenance flag", () => {
  it("is polled every 15 s while off and every 5 s while on", () => {
    expect(TECHNICAL_WORK_POLL_OFF_MS).toBe(15_000);
    expect(TECHNICAL_WORK_POLL_ON_MS).toBe(5_000);
    const on = { state: { data: { enabled: true, message: null, until: null } } };
    const off = { state: { data: { enabled: false, message: null, until: null } } };
    const unknown = { state: { data: undefined } };
    expect(technicalWorkPollInterval(on as never)).toBe(5_000);
    expect(technicalWorkPollInterval(off as never)).toBe(15_000);
    expect(technicalWorkPollInterval(unknown as never)).toBe(15_000);
    expect(settingsQueries.technicalWork().refetchInterval).toBe(technicalWorkPollInterval);
  });

  it("reads every well-formed reply exactly as the contract's schema does", () => {
    const replies = [
      { enabled: false, message: null, until: null },
      { enabled: true, message: MESSAGE, until: "2030-01-01T12:00:00Z" },
      { enabled: true, message: null, until: "2030-01-01T12:00:00.000+05:00" },
    ];
    for (const reply of replies) expect(readTechnicalWork(reply)).toEqual(TechnicalWorkReply.parse(reply));
  });

  it("still says 'on' when the note or the end time is malformed", () => {
    expect(readTechnicalWork({ enabled: true, message: { en: "only English" }, until: "tomorrow" })).toEqual({
      enabled: true,
      message: null,
      until: null,
    });
    expect(readTechnicalWork(null)).toEqual({ enabled: false, message: null, until: null });
    expect(readTechnicalWork({ enabled: "true" }).enabled).toBe(false);
  });
});

describe("settings queries", () => {
  it("key everything under 'settings' with what the fetch reads", () => {
    expect(settingsQueries.technicalWork().queryKey).toEqual(["settings", "technical_work"]);
    expect(settingsQueries.value("botUsername").queryKey).toEqual(["settings", "value", "botUsername"]);
    expect(settingsQueries.defaultInviter().queryKey).toEqual(["settings", "value", "defaultInviter"]);
  });

  it("read the bot's username and the default inviter out of the setting reply", () => {
    const bot = settingsQueries.botUsername().select;
    const inviter = settingsQueries.defaultInviter().select;
    expect(bot?.({ key: "botUsername", value: "@kassa_bot" })).toBe("kassa_bot");
    expect(bot?.({ key: "botUsername", value: "" })).toBeNull();
    expect(inviter?.({ key: "defaultInviter", value: "admin" })).toBe("admin");
    expect(inviter?.({ key: "defaultInviter", value: 42 })).toBeNull();
    expect(botLink("kassa_bot")).toBe("https://t.me/kassa_bot");
  });
});

describe("public settings read without the contract (the login screen's budget)", () => {
  it("read well-formed replies exactly as the contract's schemas do", () => {
    for (const reply of [{ available: true }, { available: false }]) {
      expect(readTelegramAuthAvailable(reply)).toEqual(TelegramAuthAvailableReply.parse(reply));
    }
    for (const reply of [
      { key: "botUsername", value: "KassaCabinetBot" },
      { key: "defaultInviter", value: null },
    ] as const) {
      expect(readSettingReply(reply.key, reply)).toEqual(SettingReply.parse(reply));
    }
  });

  it("refuse what the contract refuses, as a parse failure", () => {
    expect(() => readTelegramAuthAvailable({ available: "yes" })).toThrow(expect.objectContaining({ kind: "parse" }));
    expect(() => readTelegramAuthAvailable(null)).toThrow();
    expect(() => readSettingReply("botUsername", { key: "defaultInviter", value: "x" })).toThrow();
    expect(() => readSettingReply("botUsername", { key: "botUsername" })).toThrow();
  });

  it("link the bot's Mini App, with a start parameter when given", () => {
    expect(miniAppLink("KassaCabinetBot")).toBe("https://t.me/KassaCabinetBot?startapp");
    expect(miniAppLink("KassaCabinetBot", "ref_alice")).toBe("https://t.me/KassaCabinetBot?startapp=ref_alice");
  });
});
