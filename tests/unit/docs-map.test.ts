/**
 * The docs are maps of the code, and a map that names what is not there misleads (docs/README.md). This
 * test reads README.md, server/README.md and docs/*.md beside the code and fails when they part:
 * - every relative link leads to a file that exists, and its `#anchor` to a heading in it;
 * - every file named in backticks exists: a path from the root (or server/, in its README) as written, else a file of
 *   the repository whose path ends with it (`paint.ts`, `services/codes.ts`), and a name placed in a file
 *   (`` `file` `name` ``, `` `name` in `file` ``) is in it;
 * - every reference written as `<file>.md, "Section"` (in docs and in code comments) names a heading of it;
 * - the environment table of server/README.md lists exactly the variables `server/src/env.ts` reads, and
 *   `.env.example` holds each of them;
 * - every `npm run <script>` the docs show is a script of package.json;
 * - the call tables of docs/api*.md list exactly the contract's routes (the operator's are in server/README.md).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { operatorRoutes } from "../../contract/operator";
import { routes } from "../../contract/routes";
import { ENV_VARIABLES } from "../../server/src/env";

const root = resolve(__dirname, "../..");
const read = (file: string) => readFileSync(join(root, file), "utf8");
const docs = ["README.md", "server/README.md", ...readdirSync(join(root, "docs")).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith(".md"),
);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** A markdown file's headings (outside fenced code), as written. */
function headings(file: string): string[] {
  const found: string[] = [];
  let fenced = false;
  for (const line of read(file).split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) found.push(line.replace(/^#+ /, "").trim());
  }
  return found;
}

/** Files of the repository's own code and docs (not dependencies, builds or data). */
function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(root, dir))) {
    if (["node_modules", "build", "dist", "artifacts", ".data", "migrations"].includes(name) || name.startsWith("."))
      continue;
    const path = dir === "." ? name : `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) sources(path, out);
    else if (/\.(ts|tsx|mjs|js|css|md)$/.test(name)) out.push(path);
  }
  return out;
}

/** What a build or a run makes: not in a fresh clone, so a doc naming it by path is not checked. */
const MADE = /^(dist|server\/build|artifacts|node_modules|\.data)\//;

/** Every file of the repository but what a build or a run makes, by its path from the root. */
const repositoryFiles = (() => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = dir === "." ? name : `${dir}/${name}`;
      if (name.startsWith(".") || MADE.test(`${path}/`)) continue;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(".");
  return files;
})();

/**
 * The files a doc means by `named`: the path as written from the root (or from server/, in its README), else every
 * file of the repository whose path ends with it (`paint.ts`, `services/codes.ts`).
 */
function filesNamed(doc: string, named: string): string[] {
  const asWritten = [named, ...(doc === "server/README.md" ? [`server/${named}`] : [])].filter((p) =>
    existsSync(join(root, p)),
  );
  if (asWritten.length > 0) return asWritten;
  const tail = `/${named.replace(/^\.\//, "")}`;
  return repositoryFiles.filter((f) => `/${f}`.endsWith(tail));
}

describe("the docs are maps of today's code", () => {
  it("every relative link leads to a file that exists, and its anchor to a heading there", () => {
    const broken: string[] = [];
    for (const file of docs) {
      const text = read(file).replace(/```[\s\S]*?```/g, "");
      for (const [, target = ""] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const [path = "", anchor] = target.split("#");
        const goal = path === "" ? file : relative(root, resolve(root, dirname(file), path));
        if (!existsSync(join(root, goal))) broken.push(`${file}: ${target} (no such file)`);
        else if (anchor && goal.endsWith(".md") && !headings(goal).map(slug).includes(anchor))
          broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("every file the docs name in backticks exists", () => {
    // What a build or a run makes is not in a fresh clone: named by path, it is not looked for.
    const missing: string[] = [];
    for (const file of docs) {
      for (const [, named = ""] of read(file).matchAll(
        /`([\w./@-]+\.(?:ts|tsx|mjs|js|css|json|md|conf|sql|html|yml))`/g,
      )) {
        if (!MADE.test(named) && filesNamed(file, named).length === 0) missing.push(`${file}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("every name the docs place in a file (`file` `name`, `name` in `file`) is in that file", () => {
    const misplaced: string[] = [];
    let checked = 0;
    for (const file of docs) {
      const text = read(file);
      const pairs = [
        ...[...text.matchAll(/`([\w./@-]+\.(?:ts|tsx|mjs|js))`(?:,| |'s)\s*`([A-Za-z_$][\w$]*)(?:\(\))?`/g)].map(
          (m) => [m[1], m[2]],
        ),
        ...[
          ...text.matchAll(/`([A-Za-z_$][\w$]*)(?:\([^`]*\))?`\s+(?:in|from|of)\s+`([\w./@-]+\.(?:ts|tsx|mjs|js))`/g),
        ].map((m) => [m[2], m[1]]),
      ];
      for (const [named = "", name = ""] of pairs) {
        const candidates = filesNamed(file, named);
        if (candidates.length === 0) continue;
        checked++;
        const word = new RegExp(`(^|[^\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`);
        if (!candidates.some((c) => word.test(read(c)))) misplaced.push(`${file}: ${name} in ${named}`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(misplaced).toEqual([]);
  });

  it('every `<file>.md, "Section"` reference in the docs and the code names a heading of that file', () => {
    const broken: string[] = [];
    const known = new Map(docs.map((f) => [f, headings(f)]));
    for (const file of sources(".")) {
      const text = read(file);
      for (const [, name = "", section = ""] of text.matchAll(
        /((?:server\/)?README\.md|docs\/[\w-]+\.md)`?(?:\]\([^)]*\))?(?:'s)?[,:]?\s+(?:\(|section\s+)?"([^"\n]{2,80})"/g,
      )) {
        const target = name === "README.md" && file.startsWith("server/") ? "server/README.md" : name;
        const titles = known.get(target);
        if (!titles) broken.push(`${file}: ${name} (no such doc)`);
        else if (!titles.some((t) => t.replace(/`/g, "") === section.replace(/`/g, "")))
          broken.push(`${file}: ${name}, "${section}"`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("server/README.md's environment table and .env.example list exactly the variables env.ts reads", () => {
    const readme = read("server/README.md");
    const table = readme.slice(readme.indexOf("## Environment"), readme.indexOf("## Running in production"));
    const documented = [...table.matchAll(/^\| `([A-Z][A-Z0-9_]+)`/gm)].map((m) => m[1]);
    expect([...documented].sort()).toEqual([...ENV_VARIABLES].sort());
    const example = read(".env.example");
    expect(ENV_VARIABLES.filter((name) => !new RegExp(`^#?\\s*${name}=`, "m").test(example))).toEqual([]);
  });

  it("every `npm run` the docs show is a script of package.json", () => {
    const scripts = Object.keys(JSON.parse(read("package.json")).scripts as Record<string, string>);
    const shown = new Set(
      docs.flatMap((f) => [...read(f).matchAll(/npm run (?:--?[\w-]+ )*([\w:][\w:-]*)/g)].map((m) => m[1] ?? "")),
    );
    expect([...shown].filter((s) => !scripts.includes(s))).toEqual([]);
    // And the README names every script a person runs (the test steps are behind `npm test`).
    const readme = read("README.md");
    const unnamed = scripts.filter((s) => !s.startsWith("test:") && !new RegExp(`npm (run )?${s}\\b`).test(readme));
    expect(unnamed).toEqual([]);
  });

  it("the call tables of docs/api*.md list exactly the contract's calls, and the operator's are in server/README.md", () => {
    const written = (path: string) => path.replace(/:(\w+)/g, "{$1}").replace(/\/$/, "");
    const calls = Object.values(routes).map((r) => `${r.method} ${written(r.path)}`);
    const pages = docs.filter((f) => /^docs\/api(-[\w-]+)?\.md$/.test(f));
    expect(pages.length).toBeGreaterThan(1);
    const table = pages.flatMap((f) =>
      [...read(f).matchAll(/^\| `([A-Z]+ \/[^`?\s]*)/gm)].map((m) => (m[1] ?? "").replace(/\/$/, "")),
    );
    const cabinet = calls.filter((c) => !c.includes(" /operator/"));
    expect(cabinet.filter((c) => !table.includes(c))).toEqual([]);
    // Served beside the contract: the health checks and the avatar files (their bytes, not a JSON reply).
    const beside = ["GET /health", "GET /health/ready", "GET /user/avatar/{file}"];
    expect(table.filter((c) => !calls.includes(c) && !beside.includes(c))).toEqual([]);
    const readme = read("server/README.md");
    const operator = Object.values(operatorRoutes)
      .filter((r) => r.path.startsWith("/operator/"))
      .map((r) => `${r.method} /api${written(r.path).split("{")[0]}`);
    expect(operator.length).toBeGreaterThan(10);
    expect(operator.filter((c) => !readme.includes(c))).toEqual([]);
  });
});
