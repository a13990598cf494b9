// The order test files start in: the longest first, so that none of them is left running alone at the end of a
// run (two cores, every step of `npm test` side by side). Vitest orders by the last run's durations when it has
// them and by file size on a fresh clone, where a short file of heavy work (50,000 investors in 200 lines) started
// two-thirds of the way through the integration step and ended it alone. The files below go first, in this order.
import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const ROOT = resolve(import.meta.dirname, "..");

/**
 * The files of each project that take longest in a run of `npm test` (its per-file times, beside the other steps),
 * longest first: the integration project's eleven took two-thirds of its files' time in the last full run, the
 * end-to-end project's nine more than half.
 */
export const LONGEST_FILES = [
  "tests/integration/ledger-property.test.ts",
  "tests/integration/kept-at-scale.test.ts",
  "tests/integration/notice-outbox.test.ts",
  "tests/integration/lean-start.test.ts",
  "tests/integration/lockout.test.ts",
  "tests/integration/bot-delivery.test.ts",
  "tests/integration/start-memory.test.ts",
  "tests/integration/guess-budgets.test.ts",
  "tests/integration/two-instances.test.ts",
  "tests/integration/partner-totals.test.ts",
  "tests/integration/partners.test.ts",
  "tests/e2e/fit-and-a11y.test.ts",
  "tests/e2e/long-lists.test.ts",
  "tests/e2e/telegram-mobile.test.ts",
  "tests/e2e/crash.test.ts",
  "tests/e2e/telegram-web-settings.test.ts",
  "tests/e2e/production-rehearsal.test.ts",
  "tests/e2e/early-balance.test.ts",
  "tests/e2e/early-balance-telegram.test.ts",
  "tests/e2e/telegram-web.test.ts",
];

for (const file of LONGEST_FILES)
  if (!existsSync(resolve(ROOT, file))) throw new Error(`tests/sequencer.ts: ${file} is not a test file any more`);

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FILES.indexOf(relative(ROOT, spec.moduleId).split("\\").join("/"));
      return at < 0 ? LONGEST_FILES.length : at;
    };
    // Each project's files in their place among vitest's, the rest in vitest's order (stable).
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of await super.sort(files)) {
      const specs = byProject.get(spec.project.name) ?? [];
      byProject.set(spec.project.name, [...specs, spec]);
    }
    return [...byProject.values()].flatMap((specs) => specs.sort((a, b) => rank(a) - rank(b)));
  }
}
