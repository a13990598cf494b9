// The test projects (unit, unit-isolated, integration, e2e) on top of the build's own config (vite.config.ts).
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, mergeConfig } from "vitest/config";
import { LongestFirst } from "./tests/sequencer.ts";
import viteConfig from "./vite.config.ts";

/**
 * Unit tests that get a module graph of their own: those that start i18next instances of their own (the
 * language loader's module state, which fallback files were skipped, is shared by every instance), the
 * launch's, whose steps are once-a-page module state (in the shared graph its contract check timed out), and every
 * file that resets or mocks modules (found by reading them): after `vi.resetModules()` the next file of a shared
 * worker gets fresh copies of the app's modules beside the packages' old ones (one i18next started twice).
 */
const ISOLATED_UNIT_TESTS = [
  "tests/unit/i18n.test.ts",
  "tests/unit/launch-data.test.ts",
  ...readdirSync(new URL("./tests/unit", import.meta.url))
    .filter((name) => /\.test\.tsx?$/.test(name))
    .map((name) => `tests/unit/${name}`)
    .filter((file) =>
      /\bvi\.(resetModules|doMock|mock)\(/.test(readFileSync(new URL(`./${file}`, import.meta.url), "utf8")),
    ),
];

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      // telegram-ui through Vite's pipeline as the build has it (its ES modules, not the CommonJS that Node's
      // resolution picks): its modules that `resolve.alias` replaces (the section header, the heading-free
      // typography) are replaced in the unit tests too.
      alias: [
        {
          find: /^@telegram-apps\/telegram-ui$/,
          replacement: fileURLToPath(
            new URL("./node_modules/@telegram-apps/telegram-ui/dist/index.js", import.meta.url),
          ),
        },
      ],
      server: { deps: { inline: [/@telegram-apps[\\/]telegram-ui/] } },
      // The longest files first, on a fresh clone too (tests/sequencer.ts).
      sequence: { sequencer: LongestFirst },
      projects: [
        {
          extends: true,
          test: {
            name: "unit",
            include: ["tests/unit/**/*.test.{ts,tsx}", "tests/architecture/**/*.test.ts"],
            exclude: ISOLATED_UNIT_TESTS,
            environment: "jsdom",
            setupFiles: ["tests/unit/setup.ts"],
            // After each test the shared setup's hooks run first (registration order, not vitest's reversed one):
            // the rendered tree is unmounted before a file's own hooks reset the session, the language or a store.
            sequence: { hooks: "list" },
            testTimeout: 120_000,
            // The files share one module graph and one document: a fresh one per file cost more time
            // than the tests themselves. tests/unit/setup.ts puts back what a test may leave behind.
            isolate: false,
          },
        },
        {
          extends: true,
          test: {
            name: "unit-isolated",
            include: ISOLATED_UNIT_TESTS,
            environment: "jsdom",
            setupFiles: ["tests/unit/setup.ts"],
            sequence: { hooks: "list" },
            testTimeout: 120_000,
          },
        },
        {
          extends: true,
          test: {
            name: "integration",
            // Each file has its own databases and servers. Three at a time on the two cores: many files wait on a timer,
            // a server or a child process, and with two the run's last minute had the machine half idle.
            maxWorkers: 3,
            // Each file builds its own servers and databases, and nothing here keeps state in a module between
            // files: a fresh module graph per file (the server's modules and packages loaded again) cost a third of
            // the step's CPU (10 files: 137 s isolated, 93 s shared, /usr/bin/time).
            isolate: false,
            // PGlite's WebAssembly on V8's baseline compiler, as `npm start` runs it (docs/database.md): the optimising
            // tier's compiling of it did not pay for itself here (docs/testing.md, "The integration tests").
            execArgv: ["--liftoff-only"],
            include: ["tests/integration/**/*.test.ts"],
            environment: "node",
            // The migrated databases every test server starts from, and a PostgreSQL when none is given.
            globalSetup: ["tests/integration/global-setup.ts"],
            setupFiles: ["tests/integration/setup.ts"],
            // Tests that spawn the operator CLI (a few seconds per call) or a second process need room on a busy machine.
            testTimeout: 300_000,
            hookTimeout: 240_000,
          },
        },
        {
          extends: true,
          test: {
            name: "e2e",
            include: ["tests/e2e/**/*.test.ts"],
            environment: "node",
            globalSetup: ["tests/e2e/global-setup.ts"],
            // A ceiling, not a speed claim: a flow of several sign-ups and screens in a real browser took
            // more than 60 s at a load average of 10 on the 2-core machine.
            testTimeout: 180_000,
            hookTimeout: 180_000,
            // A worker per server (tests/e2e/global-setup.ts): a worker's files run one after another, as they
            // change their server's state. Three on two cores: a browser test waits on its page much of its time.
            maxWorkers: 3,
            // A worker's files share its module graph: Playwright's client and the support modules load once.
            isolate: false,
            // A real server and browser on a busy 2-core machine: a reply with an argon2 check and a
            // text namespace loaded on first use can take more than vitest's default 1 s of polling (10 s once
            // ran out at a load of 10: a ceiling, not a speed claim).
            expect: { poll: { timeout: 30_000 } },
          },
        },
      ],
    },
  }),
);
