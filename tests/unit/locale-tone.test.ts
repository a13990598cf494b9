/**
 * Messages are said calmly: no text in any language has an exclamation mark, but for the one wording
 * the product fixes (the required-field message, docs/cabinet-rules.md).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "../../locales");
type Tree = { [key: string]: string | Tree };
/** The product's own wording, kept as it is given: 'Please fill out this field!'. */
const FIXED = new Set(["validation.json:required"]);

function leaves(tree: Tree, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

describe("the tone of the texts", () => {
  for (const language of readdirSync(ROOT)) {
    it(`${language}: no exclamation marks`, () => {
      const loud = readdirSync(join(ROOT, language)).flatMap((file) =>
        leaves(JSON.parse(readFileSync(join(ROOT, language, file), "utf8")) as Tree)
          .filter(([key, text]) => text.includes("!") && !FIXED.has(`${file}:${key}`))
          .map(([key, text]) => `${file}:${key}: ${text}`),
      );
      expect(loud).toEqual([]);
    });
  }
});
