/**
 * No circle of files: in `contract/`, `src/` and `server/src/` no file reaches itself through its imports (type
 * imports and re-exports count: a circle is a knot a reader must hold in mind whole, whatever runs).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** The file an import names, when it is one of the project's (aliases and relative paths; `.js` written for `.ts`). */
function resolveImport(from: string, spec: string): string | null {
  let base: string;
  if (spec === "@contract") base = join(ROOT, "contract/index.ts");
  else if (spec.startsWith("@contract/")) base = join(ROOT, "contract", spec.slice("@contract/".length));
  else if (spec.startsWith("@/")) base = join(ROOT, "src", spec.slice(2));
  else if (spec.startsWith(".")) base = resolve(dirname(from), spec);
  else return null;
  const stem = base.replace(/\.(m?js)$/, "");
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function circles(roots: string[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const file of roots.flatMap((root) => files(join(ROOT, root)))) {
    const source = readFileSync(file, "utf8");
    const targets = [...source.matchAll(IMPORT)]
      .map((match) => resolveImport(file, match[1] ?? match[2] ?? ""))
      .filter((target): target is string => target !== null);
    graph.set(file, targets);
  }
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") found.push(stack.slice(stack.indexOf(next)).map((f) => relative(ROOT, f)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe("import circles", () => {
  it.each([["contract"], ["src"], ["server/src"]])("none among the files of %s", (root) => {
    expect(circles([root])).toEqual([]);
  });
});
