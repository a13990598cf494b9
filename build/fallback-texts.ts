// The entry chunk's texts for a failed download of the translations, in every language, taken from the locale files
// at build time (`virtual:kassa-fallback-texts`, read by src/config/fallback-texts.ts): one source for every text.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { LANGUAGES } from "../contract/enums.ts";
import { FALLBACK_KEYS } from "../src/config/fallback-keys.ts";

const ID = "virtual:kassa-fallback-texts";

export const fallbackTexts: Plugin = {
  name: "kassa:fallback-texts",
  resolveId: (id) => (id === ID ? `\0${ID}` : null),
  load(id) {
    if (id !== `\0${ID}`) return null;
    const texts = Object.fromEntries(
      LANGUAGES.map((language) => {
        const file = fileURLToPath(new URL(`../locales/${language}/common.json`, import.meta.url));
        this.addWatchFile(file);
        const common = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
        const picked = FALLBACK_KEYS.map((key) => {
          const text = key
            .split(".")
            .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], common);
          if (typeof text !== "string") throw new Error(`fallbackTexts: locales/${language}/common.json has no ${key}`);
          return [key, text];
        });
        return [language, Object.fromEntries(picked)];
      }),
    );
    return `export default ${JSON.stringify(texts)};`;
  },
};
