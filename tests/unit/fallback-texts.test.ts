/** The error screen's embedded texts (entry chunk) say exactly what the locale files say. */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { FALLBACK_TEXTS } from "@/config/fallback-texts";

function lookup(tree: Record<string, unknown>, path: string): unknown {
  return path.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
}

describe("fallback texts", () => {
  for (const [language, texts] of Object.entries(FALLBACK_TEXTS)) {
    it(`${language}: equal to locales/${language}/common.json`, () => {
      const common = JSON.parse(fs.readFileSync(`locales/${language}/common.json`, "utf8")) as Record<string, unknown>;
      for (const [key, text] of Object.entries(texts))
        expect({ key, text: lookup(common, key) }).toEqual({ key, text });
    });
  }
});
