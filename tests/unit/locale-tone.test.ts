/** Messages are said calmly: no text in any language ends a sentence with an exclamation mark. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "../../locales");
type Tree = { [key: string]: string | Tree };

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
          .filter(([, text]) => text.includes("!"))
          .map(([key, text]) => `${file}:${key}: ${text}`),
      );
      expect(loud).toEqual([]);
    });
  }
});
