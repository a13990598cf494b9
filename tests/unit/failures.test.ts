import { describe, expect, it } from "vitest";
import { whatFailed } from "../../scripts/lib/failures.mjs";

describe("npm test's summary of a failed step", () => {
  it("names each failed test with the first line of its error, colours stripped", () => {
    const output = [
      " \x1b[32m✓\x1b[39m tests/e2e/shell.test.ts (3 tests) 4200ms",
      "\x1b[31m⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯\x1b[39m",
      "",
      " \x1b[31mFAIL\x1b[39m  |e2e| tests/e2e/trust.test.ts > trust > an aborted chunk recovers",
      "TimeoutError: locator.waitFor: Timeout 30000ms exceeded.",
      "Call log:",
      " ❯ tests/e2e/trust.test.ts:120:5",
    ].join("\n");
    expect(whatFailed(output)).toEqual([
      "FAIL  |e2e| tests/e2e/trust.test.ts > trust > an aborted chunk recovers",
      "    TimeoutError: locator.waitFor: Timeout 30000ms exceeded.",
    ]);
  });

  it("gives the last lines when the step is not a test run", () => {
    const output = `${Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n")}\n\n`;
    const shown = whatFailed(output);
    expect(shown).toHaveLength(20);
    expect(shown.at(-1)).toBe("line 29");
  });
});
