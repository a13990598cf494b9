/** In-page primary buttons inside Telegram: the theme's button colour where it reads, else the least change. */
import { describe, expect, it } from "vitest";
import { buttonFill, contrastRatio } from "@/tma/button-fill";

const rgb = (hex: string) =>
  [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)) as [number, number, number];

describe("button fill", () => {
  it("keeps a theme's button colour whose text reads on it: the Main button's own colour", () => {
    expect(buttonFill("#1565c0", "#ffffff")).toBe("#1565c0");
    expect(buttonFill("#ffd54f", "#000000")).toBe("#ffd54f");
  });

  it("moves a button colour that fails 4.5:1 by the least that reaches it (not a fixed 22 %)", () => {
    // Telegram's default light and dark buttons under white text read at 4.1 and 3.7:1.
    for (const button of ["#2481cc", "#5288c1"]) {
      const fill = buttonFill(button, "#ffffff") as string;
      const ratio = contrastRatio(rgb(fill), [255, 255, 255]);
      expect(ratio).toBeGreaterThanOrEqual(4.5);
      expect(ratio).toBeLessThan(4.75);
    }
    // Dark text on a pale button: lightened instead.
    const pale = buttonFill("#9ab0c8", "#222222") as string;
    expect(contrastRatio(rgb(pale), rgb("#222222"))).toBeGreaterThanOrEqual(4.5);
    expect(buttonFill("not a colour", "#ffffff")).toBeNull();
  });
});
