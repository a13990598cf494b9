/**
 * Asking for a built file ahead (`lib/preload-file.ts`), as the launcher and the warm-ups ask: one link a file,
 * stylesheets downloaded or applied, code downloaded without running.
 */
import { afterEach, describe, expect, it } from "vitest";
import { preloadFile } from "@/lib/preload-file";

const ours = () => [...document.head.querySelectorAll("link")].filter((link) => link.href.includes("preload-test"));

afterEach(() => {
  for (const link of ours()) link.remove();
});

describe("preloadFile", () => {
  it("downloads a stylesheet without applying it unless asked, and code as a script (jsdom preloads no modules)", () => {
    preloadFile("assets/preload-test-a.css");
    preloadFile("assets/preload-test-b.css", { applyStyles: true, low: true });
    preloadFile("assets/preload-test-c.js");
    // jsdom keeps `as` and `fetchPriority` as plain properties: unset, they are undefined.
    const seen = ours().map((link) => [link.getAttribute("href"), link.rel, link.as || "-", link.fetchPriority || "-"]);
    expect(seen).toEqual([
      ["/assets/preload-test-a.css", "preload", "style", "-"],
      ["/assets/preload-test-b.css", "stylesheet", "-", "low"],
      ["/assets/preload-test-c.js", "preload", "script", "-"],
    ]);
    // Cross-origin mode, as the module scripts ask: one download serves both.
    expect(ours().map((link) => link.crossOrigin)).toEqual(["", "", ""]);
  });

  it("asks once for a file the page links already, whoever linked it", () => {
    const first = preloadFile("assets/preload-test-d.js");
    expect(first).not.toBeNull();
    expect(preloadFile("assets/preload-test-d.js", { low: true })).toBeNull();
    const vites = document.createElement("link");
    vites.rel = "stylesheet";
    vites.href = "/assets/preload-test-e.css";
    document.head.append(vites);
    expect(preloadFile("assets/preload-test-e.css", { applyStyles: true })).toBeNull();
    expect(ours()).toHaveLength(2);
  });
});
