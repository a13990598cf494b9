// The order test files start in (tests/sequencer.ts): the listed longest files first within their own project,
// the rest as vitest orders them, with nothing of the last run to go by (a fresh clone: by size).
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { TestSpecification, Vitest } from "vitest/node";
import { LONGEST_FILES, LongestFirst } from "../sequencer";

const root = resolve(import.meta.dirname, "../..");
const spec = (project: string, file: string) =>
  ({
    moduleId: resolve(root, file),
    project: { name: project, config: { isolate: false, sequence: { groupOrder: 0 } } },
  }) as unknown as TestSpecification;
const sequencer = new LongestFirst({
  config: { root },
  cache: { getTestSpecificationResult: () => undefined },
} as unknown as Vitest);
const order = async (specs: TestSpecification[]) =>
  (await sequencer.sort(specs)).map((s) => `${s.project.name} ${s.moduleId.slice(root.length + 1)}`);

describe("the test files' order", () => {
  it("starts the listed files first, longest first, each in its own project; the rest by size", async () => {
    const sorted = await order([
      spec("integration", "tests/integration/health.test.ts"),
      spec("integration", "tests/integration/ledger-property.test.ts"),
      spec("e2e", "tests/e2e/tab-bar.test.ts"),
      spec("integration", "tests/integration/two-instances.test.ts"),
      spec("e2e", "tests/e2e/long-lists.test.ts"),
      spec("integration", "tests/integration/kept-at-scale.test.ts"),
    ]);
    expect(sorted).toEqual([
      "e2e tests/e2e/long-lists.test.ts",
      "e2e tests/e2e/tab-bar.test.ts",
      "integration tests/integration/ledger-property.test.ts",
      "integration tests/integration/kept-at-scale.test.ts",
      "integration tests/integration/two-instances.test.ts",
      "integration tests/integration/health.test.ts",
    ]);
  });

  it("lists only files of the projects that run them", () => {
    for (const file of LONGEST_FILES) expect(file).toMatch(/^tests\/(integration|e2e)\/[a-z0-9-]+\.test\.ts$/);
  });
});
