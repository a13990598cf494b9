// `npm test`: every test of Kassa, in the order that fails fastest.
// lint → types → unit + integration (PGlite and a real PostgreSQL) → production build → end-to-end in
// Debian's Chromium (includes the bundle budget).
import { existsSync } from "node:fs";
import { startPostgres } from "./lib/postgres.mjs";
import { ensureSystemPackages, findPostgresBin, run } from "./lib/system.mjs";

const started = Date.now();
ensureSystemPackages();

const bin = (name) => `node_modules/.bin/${name}`;
const steps = [];
let pg;
let failed = false;

function step(name, cmd, args, env = {}) {
  if (failed) return;
  console.log(`\n[kassa] ▶ ${name}`);
  const result = run(cmd, args, { env: { ...process.env, ...env } });
  steps.push({ name, ...result });
  if (!result.ok) failed = true;
}

try {
  pg = await startPostgres(findPostgresBin());
  console.log(`[kassa] PostgreSQL for the tests is up (${pg.url.replace(/\/\/[^@]*@/, "//")})`);
  const env = { TEST_DATABASE_URL: pg.url };

  step("lint and format (biome)", bin("biome"), ["ci", "."]);
  step("types (tsc, app and server)", "npm", ["run", "--silent", "typecheck"]);
  // One after the other: the screen tests and the server tests would otherwise share two cores.
  step("unit tests (vitest, jsdom)", bin("vitest"), ["run", "--project", "unit"], env);
  step(
    "integration tests (vitest: the server on PGlite and PostgreSQL)",
    bin("vitest"),
    ["run", "--project", "integration"],
    env,
  );
  step("production build (vite)", bin("vite"), ["build", "--logLevel", "warn"]);
  if (!failed && !existsSync("dist/index.html")) failed = true;
  step("end-to-end tests in Chromium (vitest + playwright-core)", bin("vitest"), ["run", "--project", "e2e"], env);
} finally {
  pg?.stop();
}

console.log("\n[kassa] summary");
for (const s of steps) console.log(`  ${s.ok ? "ok  " : "FAIL"} ${s.name} (${s.seconds.toFixed(1)} s)`);
console.log(`  total ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
