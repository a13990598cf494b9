/**
 * Our `--disable-features` replaces Playwright's (Chromium reads the last one), so it carries Playwright's list
 * (scripts/lib/system.mjs). This fails when a Playwright upgrade changes that list, so ours follows it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, disabledFeaturesSwitch, PLAYWRIGHT_DISABLED_FEATURES } from "../../scripts/lib/system.mjs";

/** The `disabledFeatures` array of playwright-core's Chromium switches, read from its installed code. */
function playwrightsList(): string[] {
  const file = createRequire(import.meta.url).resolve("playwright-core/lib/coreBundle");
  const code = readFileSync(file, "utf8");
  const block = /disabledFeatures = \[([\s\S]*?)\]/.exec(code)?.[1];
  if (!block) throw new Error("playwright-core's disabledFeatures list was not found");
  return [...block.replace(/\/\/.*$/gm, "").matchAll(/"([^"]+)"/g)].map((match) => match[1] as string);
}

describe("Chromium's switches in the tests and benchmarks", () => {
  it("carry Playwright's disabled features, and the browser's own UI pages off", () => {
    expect(PLAYWRIGHT_DISABLED_FEATURES).toEqual(playwrightsList());
    const features = CHROMIUM_ARGS.filter((arg) => arg.startsWith("--disable-features=")).map((arg) =>
      arg.slice("--disable-features=".length).split(","),
    );
    expect(features).toHaveLength(1);
    expect(features[0]).toEqual(expect.arrayContaining([...playwrightsList(), "WebUIOmniboxPopup"]));
  });

  it("leave on what a launch asks to keep", () => {
    const features = disabledFeaturesSwitch(["ThirdPartyStoragePartitioning"]).split("=")[1]?.split(",");
    expect(features).not.toContain("ThirdPartyStoragePartitioning");
    expect(features).toContain("PaintHolding");
  });
});
