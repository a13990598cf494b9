/**
 * Imports run one way: app → features → shared (components, lib, tma, config, types) → contract;
 * server → contract; the contract imports neither; features do not import each other.
 * Biome's noRestrictedImports zones catch most of this while editing; this test checks the whole tree,
 * resolving relative paths too.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const SHARED = new Set(["components", "lib", "tma", "config", "types", "assets", "styles"]);

function files(dir: string): string[] {
  const out: string[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (/\.(ts|tsx|mts)$/.test(name)) out.push(path);
  }
  return out;
}

type Zone = { layer: "app" | "feature" | "shared" | "main" | "contract" | "server" | "external"; feature?: string };

function zoneOf(absPath: string): Zone {
  const rel = relative(ROOT, absPath).split("\\").join("/");
  if (rel.startsWith("contract/")) return { layer: "contract" };
  if (rel.startsWith("server/")) return { layer: "server" };
  if (rel === "src/main.tsx") return { layer: "main" };
  const m = /^src\/([^/]+)(?:\/([^/]+))?/.exec(rel);
  if (m) {
    if (m[1] === "app") return { layer: "app" };
    if (m[1] === "features") return { layer: "feature", feature: m[2] };
    if (SHARED.has(m[1] ?? "")) return { layer: "shared" };
    return { layer: "shared" };
  }
  return { layer: "external" };
}

function target(fromFile: string, spec: string): Zone {
  if (spec === "@contract" || spec.startsWith("@contract/")) return { layer: "contract" };
  if (spec.startsWith("@/")) return zoneOf(join(ROOT, "src", spec.slice(2)));
  if (spec.startsWith(".")) return zoneOf(resolve(dirname(fromFile), spec));
  return { layer: "external" };
}

const ALLOWED: Record<Zone["layer"], Zone["layer"][]> = {
  main: ["app", "feature", "shared", "contract", "main"],
  app: ["app", "feature", "shared", "contract"],
  feature: ["feature", "shared", "contract"],
  shared: ["shared", "contract"],
  contract: ["contract"],
  server: ["server", "contract"],
  external: [],
};

function violations(): string[] {
  const found: string[] = [];
  const all = [...files(join(ROOT, "src")), ...files(join(ROOT, "server")), ...files(join(ROOT, "contract"))];
  for (const file of all) {
    const from = zoneOf(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(
      /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
    )) {
      const spec = match[1] ?? match[2] ?? "";
      const to = target(file, spec);
      if (to.layer === "external") continue;
      const ok =
        ALLOWED[from.layer].includes(to.layer) &&
        !(from.layer === "feature" && to.layer === "feature" && from.feature !== to.feature);
      if (!ok) found.push(`${relative(ROOT, file)} imports ${spec} (${from.layer} → ${to.layer})`);
    }
  }
  return found;
}

describe("import direction", () => {
  it("keeps app → features → shared → contract and server → contract", () => {
    expect(violations()).toEqual([]);
  });

  it("would notice a wrong-way import", () => {
    expect(target(join(ROOT, "src/lib/x.ts"), "@/features/deposits/api")).toEqual({
      layer: "feature",
      feature: "deposits",
    });
    expect(ALLOWED.shared.includes("feature")).toBe(false);
    expect(target(join(ROOT, "server/src/app.ts"), "../../src/lib/api-client")).toEqual({ layer: "shared" });
    expect(ALLOWED.server.includes("shared")).toBe(false);
  });
});
