/** Every language is complete, and the catalogues match the contract word for word. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  DEPOSIT_STATUSES,
  ERROR_CODES,
  ERRORS,
  LANGUAGES,
  LEDGER_OPERATION_TYPES,
  OPERATION_TYPES,
  REFILL_STATUSES,
  RISK_LEVELS,
  SUCCESS_MESSAGES,
  VALIDATION_CODES,
  VERIFICATION_STATUSES,
  WITHDRAWAL_STATUSES,
} from "@contract";
import { describe, expect, it } from "vitest";
import { NAMESPACES } from "@/config/i18n";
import { parseAmountInput } from "@/lib/money";

const ROOT = join(__dirname, "../../locales");
type Tree = { [key: string]: string | Tree };

function load(language: string, namespace: string): Tree {
  return JSON.parse(readFileSync(join(ROOT, language, `${namespace}.json`), "utf8")) as Tree;
}

/** A key without i18next's plural suffix (`code.message_few` → `code.message`): languages have different forms. */
const PLURAL = /_(zero|one|two|few|many|other)$/;

function leaves(tree: Tree, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

describe("locale files", () => {
  it("exist for exactly the contract's languages and the app's namespaces", () => {
    expect(readdirSync(ROOT).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) {
      const files = readdirSync(join(ROOT, language)).map((f) => f.replace(/\.json$/, ""));
      expect(files.sort()).toEqual([...NAMESPACES].sort());
    }
  });

  for (const namespace of NAMESPACES) {
    const english = [...new Set(leaves(load("en", namespace)).map(([key]) => key.replace(PLURAL, "")))];
    for (const language of LANGUAGES) {
      it(`${language}/${namespace} has exactly the English keys, every plural form of the language and no empty text`, () => {
        const entries = leaves(load(language, namespace));
        expect([...new Set(entries.map(([key]) => key.replace(PLURAL, "")))].sort()).toEqual([...english].sort());
        const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
        for (const base of new Set(entries.filter(([key]) => PLURAL.test(key)).map(([key]) => key.replace(PLURAL, ""))))
          for (const form of forms)
            expect(
              entries.some(([key]) => key === `${base}_${form}`),
              `${language}/${namespace}:${base}_${form}`,
            ).toBe(true);
        for (const [key, text] of entries) expect(text.trim(), `${language}/${namespace}:${key}`).not.toBe("");
      });
    }
  }

  it("keeps the same placeholders in every language", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const namespace of NAMESPACES) {
      const english = new Map(leaves(load("en", namespace)));
      for (const language of LANGUAGES) {
        for (const [key, text] of leaves(load(language, namespace))) {
          expect(placeholders(text), `${language}/${namespace}:${key}`).toEqual(
            placeholders(english.get(key) ?? english.get(key.replace(PLURAL, "_other")) ?? ""),
          );
        }
      }
    }
  });
});

describe("errors namespace", () => {
  const english = load("en", "errors");

  it("has one key per contract error code and nothing else", () => {
    expect(Object.keys(english).sort()).toEqual([...ERROR_CODES].sort());
  });

  it("says in English exactly the contract's message, with {x} as i18next's {{x}}", () => {
    for (const code of ERROR_CODES) {
      expect(english[code]).toBe(ERRORS[code].message.replace(/\{(\w+)\}/g, "{{$1}}"));
    }
    expect(english.UPDATE_FAILED).toBe("Update error {{error}}");
    expect(english.SESSION_TIMEOUT).toBe("Session timed out");
    expect(english.WAIT_EXPIRED).toBe("The waiting time has expired");
  });
});

describe("validation, success and enums namespaces", () => {
  it("validation has each contract validation code, 'required' as the cabinet rules word it", () => {
    const english = load("en", "validation");
    expect(Object.keys(english).sort()).toEqual([...VALIDATION_CODES].sort());
    expect(english.required).toBe("Please fill out this field!");
  });

  it("success has the catalogue's success messages", () => {
    const english = load("en", "success");
    expect(english).toEqual(SUCCESS_MESSAGES);
    expect(english.CODE_SENT).toBe("Request successfully sent");
    expect(english.VERIFICATION_SUCCEEDED).toBe("Successful verification");
  });

  it("enums names every operation type and status the app shows", () => {
    const english = load("en", "enums") as Record<string, Record<string, string>>;
    expect(Object.keys(english.operationType ?? {}).sort()).toEqual([...OPERATION_TYPES].sort());
    expect(Object.keys(english.refillStatus ?? {}).sort()).toEqual([...REFILL_STATUSES].sort());
    expect(Object.keys(english.withdrawalStatus ?? {}).sort()).toEqual([...WITHDRAWAL_STATUSES].sort());
    expect(Object.keys(english.verificationStatus ?? {}).sort()).toEqual([...VERIFICATION_STATUSES].sort());
  });

  it("enums names every ledger kind, deposit status and risk level of the money slice", () => {
    const english = load("en", "enums") as Record<string, Record<string, string>>;
    expect(Object.keys(english.ledgerOperationType ?? {}).sort()).toEqual([...LEDGER_OPERATION_TYPES].sort());
    expect(Object.keys(english.depositStatus ?? {}).sort()).toEqual([...DEPOSIT_STATUSES].sort());
    expect(Object.keys(english.riskLevel ?? {}).sort()).toEqual([...RISK_LEVELS].sort());
  });

  it("Kazakh is written in Cyrillic", () => {
    const text = leaves(load("kk", "common"))
      .filter(([key]) => !key.startsWith("languages.") && key !== "appName")
      .map(([, value]) => value)
      .join(" ");
    const letters = text.replace(/[^\p{L}]/gu, "");
    const cyrillic = letters.replace(/[^\p{Script=Cyrillic}]/gu, "");
    expect(cyrillic.length / letters.length).toBeGreaterThan(0.9);
  });

  it("never names a currency twice: an amount the app formats with its currency is not followed by the currency", () => {
    // The app's screens get {{amount}}, {{debited}}, {{received}} and {{total}} formatted as "100,00 USDT".
    const twice = /\{\{(amount|debited|received|total)\}\}\s*\{\{(currency|from|to)\}\}/;
    const found = LANGUAGES.flatMap((language) =>
      NAMESPACES.filter((namespace) => namespace !== "bot").flatMap((namespace) =>
        leaves(load(language, namespace))
          .filter(([, value]) => twice.test(value))
          .map(([key]) => `${language}/${namespace}:${key}`),
      ),
    );
    expect(found).toEqual([]);
  });

  it("keeps one word for one thing (docs/glossary.md): none of the words it retired is back on a screen", () => {
    const retired: Record<string, RegExp> = {
      de: /Aufladung|aufladen|Aufgeladen|Laden Sie [^.]* auf\b|Kabinett|\bAbo\b|einbehalten|öffentliche[sn]? Angebot|Sie geben|erste Linie|Empfehlungen: /,
      ru: /Начислено и удержано|Утрачено|Будет утрачено|Невыплаченный доход|Отказ от удержанных|Оплатите на этот адрес|В депозитах|по плану|^План$|В конце плана|Эл\. почта/,
      kk: /Толтыру|Жойылды|Жойылады|жоспар|Мәртебе|жабу керек пе|есептеулер|Есептеу|Төленбеген табыс|Крипто-кейс|[Ққ]ұпия сөз|шығаратын әмиян|параметрлер|Эл\. пошта|\}\} (дейін|бастап)/,
      en: /This is what the close did|\btop[- ]?ups?\b|\btop (it|them) up\b|\bfirst line\b|\bYou give\b/i,
    };
    const found = Object.entries(retired).flatMap(([language, words]) =>
      NAMESPACES.filter((namespace) => namespace !== "terms").flatMap((namespace) =>
        leaves(load(language, namespace))
          .filter(([, value]) => words.test(value))
          .map(([key, value]) => `${language}/${namespace}:${key}: ${value}`),
      ),
    );
    expect(found).toEqual([]);
  });

  it("gives each language an example phone number of its own country, not Kazakhstan's in every language", () => {
    const prefixes: Record<string, RegExp> = {
      en: /^\+1\d{10}$/,
      ru: /^\+79\d{9}$/,
      de: /^\+49\d+$/,
      kk: /^\+77\d{9}$/,
    };
    for (const [language, prefix] of Object.entries(prefixes)) {
      const texts = Object.fromEntries([...leaves(load(language, "auth")), ...leaves(load(language, "settings"))]);
      expect({ language, auth: prefix.test(texts["placeholders.phone"] ?? "") }).toEqual({ language, auth: true });
      expect({ language, settings: prefix.test(texts["profile.phonePlaceholder"] ?? "") }).toEqual({
        language,
        settings: true,
      });
    }
  });

  it("writes the amount rule's example number with the language's own decimal mark, one the field takes", () => {
    for (const language of LANGUAGES) {
      const example = /\d[\d.,]*\d/.exec(
        String(leaves(load(language, "validation")).find(([key]) => key === "decimal")?.[1]),
      )?.[0];
      const decimals = new Intl.NumberFormat(language, { minimumFractionDigits: 2 }).format("125.5");
      expect({ language, example }).toEqual({ language, example: decimals });
      expect(parseAmountInput(example ?? "", "USDT")).toEqual({ ok: true, value: "125.5" });
    }
  });
});
