/**
 * In-page primary buttons inside Telegram: the theme's `button_color` itself wherever its text
 * (`button_text_color`) reads on it at 4.5:1 (WCAG AA), so they match Telegram's own Main button; only
 * a theme whose button fails that is moved towards black (or white, under dark text), by the least
 * that reaches 4.5:1. On the web contrast.css darkens the system's accent instead.
 */

type Rgb = [number, number, number];

function parseHex(color: string | undefined): Rgb | null {
  const hex = color?.trim().replace(/^#/, "") ?? "";
  const full = hex.length === 3 ? hex.replace(/./g, (c) => c + c) : hex;
  if (!/^[0-9a-f]{6}$/i.test(full)) return null;
  return [0, 2, 4].map((at) => Number.parseInt(full.slice(at, at + 2), 16)) as Rgb;
}

function luminance([r, g, b]: Rgb): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

/** The fill for in-page primary buttons, or null when the theme gives no readable colours. */
export function buttonFill(buttonColor: string | undefined, textColor: string | undefined): string | null {
  const button = parseHex(buttonColor);
  const text = parseHex(textColor ?? "#ffffff");
  if (!button || !text) return null;
  if (contrastRatio(button, text) >= 4.5) return toHex(button);
  const towards: Rgb = luminance(text) > 0.5 ? [0, 0, 0] : [255, 255, 255];
  for (let step = 1; step <= 100; step += 1) {
    const share = step / 100;
    // Rounded as it will be written, so the colour used is the one that was checked.
    const mixed = button.map((c, i) => Math.round(c + ((towards[i] as number) - c) * share)) as Rgb;
    if (contrastRatio(mixed, text) >= 4.5) return toHex(mixed);
  }
  return toHex(towards);
}
