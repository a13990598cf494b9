/**
 * The server's own texts, from `locales/<lng>/bot.json` (the same files as the app's, under the same
 * parity test): the bot's chat messages and the notification templates. `{{name}}` is filled from
 * the values; a missing key falls back to Russian, the product's fallback language.
 */
import { readFileSync } from "node:fs";
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from "@contract";
import { normalizeDecimal } from "../decimal";

type Tree = { [key: string]: string | Tree };

const LOCALES_DIR = new URL("../../../locales/", import.meta.url);

function load(language: Language): Tree {
  return JSON.parse(readFileSync(new URL(`${language}/bot.json`, LOCALES_DIR), "utf8")) as Tree;
}

const CATALOGUES = Object.fromEntries(LANGUAGES.map((language) => [language, load(language)])) as Record<
  Language,
  Tree
>;

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split(".")) {
    if (node === undefined || typeof node === "string") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

const LOCALES: Record<Language, string> = { en: "en", ru: "ru", de: "de", kk: "kk" };

/**
 * The key of `key` for `count` in `language`, as i18next names plural forms (`key_one`, `key_few`,
 * `key_many`, `key_other`, from the language's plural rules), when the catalogue has plural forms.
 */
function pluralKey(tree: Tree, language: Language, key: string, count: string | undefined): string {
  if (count === undefined || lookup(tree, key) !== undefined) return key;
  const form = new Intl.PluralRules(LOCALES[language]).select(Number(count));
  return lookup(tree, `${key}_${form}`) !== undefined ? `${key}_${form}` : `${key}_other`;
}

/**
 * The text of `key` (dot path in bot.json) in `language`, with `{{name}}` filled from `values`; with
 * `values.count`, the plural form for that number (i18next's `_one`/`_few`/`_many`/`_other` keys).
 */
export function botText(language: Language, key: string, values: Record<string, string> = {}): string {
  const own = CATALOGUES[language];
  const fallback = CATALOGUES[FALLBACK_LANGUAGE];
  const template =
    lookup(own, pluralKey(own, language, key, values.count)) ??
    lookup(fallback, pluralKey(fallback, FALLBACK_LANGUAGE, key, values.count));
  if (template === undefined) throw new Error(`no text bot:${key}`);
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? "").trim();
}

/** Whether bot.json has `key` (e.g. a withdrawal status). */
export function hasBotText(language: Language, key: string): boolean {
  return lookup(CATALOGUES[language], key) !== undefined;
}

const SEPARATORS: Record<Language, { group: string; decimal: string }> = {
  en: { group: ",", decimal: "." },
  de: { group: ".", decimal: "," },
  ru: { group: "\u00a0", decimal: "," },
  kk: { group: "\u00a0", decimal: "," },
};

/**
 * An amount as people of `language` write it, from its exact decimal string (never a number):
 * digits grouped by thousands, at least two decimals (`1,234.56`, `1 234,56`, `0.00012345`).
 */
export function formatAmount(value: string, language: Language): string {
  const exact = normalizeDecimal(value);
  const negative = exact.startsWith("-");
  const [int = "0", frac = ""] = (negative ? exact.slice(1) : exact).split(".");
  const { group, decimal } = SEPARATORS[language];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${negative ? "-" : ""}${grouped}${decimal}${frac.padEnd(2, "0")}`;
}
