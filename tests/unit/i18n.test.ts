import { FALLBACK_LANGUAGE as CONTRACT_FALLBACK, LANGUAGES } from "@contract";
import { createInstance } from "i18next";
import { describe, expect, it, vi } from "vitest";
import {
  FALLBACK_LANGUAGE,
  I18N_MAX_PARALLEL_READS,
  I18N_MAX_RETRIES,
  I18N_RETRY_TIMEOUT_MS,
  i18nOptions,
  initI18n,
  LANGUAGE_STORAGE_KEY,
  SUPPORTED_LANGUAGES,
  setLanguage,
  toSupportedLanguage,
} from "@/config/i18n";
import { detectLanguage } from "@/config/language";

describe("i18n settings (the limits of the cabinet rules)", () => {
  it("loads at most 10 files in parallel, retries 5 times, first after 350 ms, falls back to Russian", () => {
    expect(I18N_MAX_PARALLEL_READS).toBe(10);
    expect(I18N_MAX_RETRIES).toBe(5);
    expect(I18N_RETRY_TIMEOUT_MS).toBe(350);
    expect(FALLBACK_LANGUAGE).toBe("ru");
    expect(i18nOptions).toMatchObject({ maxParallelReads: 10, maxRetries: 5, retryTimeout: 350, fallbackLng: "ru" });
  });

  it("offers the contract's languages and fallback", () => {
    expect([...SUPPORTED_LANGUAGES]).toEqual([...LANGUAGES]);
    expect(FALLBACK_LANGUAGE).toBe(CONTRACT_FALLBACK);
  });
});

describe("language detection", () => {
  it("prefers the saved choice, then Telegram's language, then the browser's, then Russian", () => {
    expect(detectLanguage({ saved: "de", telegram: "kk", browser: ["en-US"] })).toBe("de");
    expect(detectLanguage({ saved: null, telegram: "kk", browser: ["en-US"] })).toBe("kk");
    expect(detectLanguage({ saved: null, telegram: undefined, browser: ["fr-FR", "en-GB"] })).toBe("en");
    expect(detectLanguage({ saved: null, telegram: "uk", browser: ["fr-FR"] })).toBe("ru");
    expect(detectLanguage({})).toBe("ru");
  });

  it("ignores a saved value that is not a supported language", () => {
    expect(detectLanguage({ saved: "fr", telegram: "de" })).toBe("de");
  });

  it("maps regional and mistaken codes to a supported language", () => {
    expect(toSupportedLanguage("de-AT")).toBe("de");
    expect(toSupportedLanguage("RU")).toBe("ru");
    expect(toSupportedLanguage("kk_KZ")).toBe("kk");
    expect(toSupportedLanguage("kz")).toBe("kk");
    expect(toSupportedLanguage("pt-BR")).toBeUndefined();
    expect(toSupportedLanguage(undefined)).toBeUndefined();
  });
});

describe("loading translations", () => {
  it("starts in the saved language, fetches only that language, and a switch saves the choice and sets <html lang>", async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, "de");
    const instance = createInstance();
    const loaded = vi.fn();
    instance.on("loaded", loaded);
    await initI18n({ instance });

    expect(instance.language).toBe("de");
    expect(document.documentElement.lang).toBe("de");
    expect(instance.t("retry")).toBe("Erneut versuchen");
    // The fallback (ru) was not fetched: its bundle is an empty placeholder.
    expect(instance.getResourceBundle("ru", "common")).toEqual({});

    await setLanguage("ru", instance);
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe("ru");
    expect(document.documentElement.lang).toBe("ru");
    expect(instance.t("retry")).toBe("Повторить");
  });

  it("takes Telegram's language when nothing is saved", async () => {
    const instance = createInstance();
    await initI18n({ instance, telegramLanguage: "kk" });
    expect(instance.language).toBe("kk");
    expect(instance.t("retry")).toBe("Қайталау");
  });
});
