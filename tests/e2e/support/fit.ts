/**
 * Whether a screen fits the phone: nothing loading left, and no text cut — by an ellipsis, by a box that
 * clips it, by the screen's edge — nor a select's chosen value or a field's value cut by its box. The one
 * check of every end-to-end walk (fit-and-a11y, home-fit, operations).
 */
import type { Page } from "playwright-core";

/** No skeleton or spinner left (a progress bar with a value is content), then two frames for layout. */
export async function settle(page: Page) {
  await page.waitForFunction(
    () => !document.querySelector(".tgui-skeleton, [role='progressbar']:not([aria-valuenow]), .content-spinner"),
    null,
    { timeout: 20_000 },
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * Every visible text in the page — the screen, any open sheet or dialog, the tab bar and the header — must
 * show whole. A problem names the text and its width in the box that cuts it:
 *
 * - a box that clips (`overflow: hidden`, an ellipsis) whose content is wider than it (scrollWidth > clientWidth);
 * - an element with text of its own whose glyphs run past the element itself (an ellipsis) or past any box
 *   around it that clips (a button, a segment, a tab, a row with `overflow: hidden`), or off the screen;
 * - a select whose chosen option is wider than the select's room for text (its padding and arrow taken off);
 * - an empty text field whose placeholder is wider than its room for text (a typed value may scroll in its
 *   field, as a 64-character hash does);
 * - a page wider than the window.
 *
 * Texts hidden on purpose (`.visually-hidden`, inside an svg) are not looked at; neither is a box of zero size.
 */
export async function cutTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const problems: string[] = [];
    const say = (what: string, text: number, room: number) =>
      problems.push(`"${what.trim().replace(/\s+/g, " ").slice(0, 40)}" (${Math.round(text)} in ${Math.round(room)})`);
    const hidden = (el: Element) => Boolean(el.closest(".visually-hidden, svg, [hidden]"));
    const canvas = document.createElement("canvas").getContext("2d");
    /** The width a line of text takes in an element's font. */
    const measure = (el: Element, text: string) => {
      if (!canvas) return 0;
      const style = getComputedStyle(el);
      canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      canvas.letterSpacing = style.letterSpacing === "normal" ? "0px" : style.letterSpacing;
      return canvas.measureText(text).width;
    };
    /** The width inside an element's padding (and, for a select, the room its arrow leaves). */
    const room = (el: HTMLElement) => {
      const style = getComputedStyle(el);
      return el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    };

    for (const el of document.body.querySelectorAll<HTMLElement>("*")) {
      if (hidden(el)) continue;
      const shown = el.getBoundingClientRect();
      if (shown.width === 0 || shown.height === 0) continue;
      if (getComputedStyle(el).visibility === "hidden") continue;

      if (el instanceof HTMLSelectElement) {
        const chosen = el.selectedOptions[0]?.textContent ?? "";
        const text = measure(el, chosen);
        if (text > room(el) + 1) say(`select ${el.name}: ${chosen}`, text, room(el));
        continue;
      }
      if (el instanceof HTMLInputElement) {
        if (!["text", "search", "email", "tel", "url", "number", "password", ""].includes(el.type)) continue;
        if (el.value || !el.placeholder) continue;
        const text = measure(el, el.placeholder);
        if (text > room(el) + 1) say(`placeholder ${el.name}: ${el.placeholder}`, text, room(el));
        continue;
      }

      // A box that clips holding more than it shows: its label ends in an ellipsis or is cut (a segment's or a
      // tab's label is an inline span that Chrome measures only as far as the ellipsis).
      const clip = getComputedStyle(el).overflowX;
      if ((clip === "hidden" || clip === "clip") && el.scrollWidth > el.clientWidth + 1 && el.textContent?.trim()) {
        say(el.textContent ?? "", el.scrollWidth, el.clientWidth);
        continue;
      }
      // An ellipsis shows as soon as the text is wider than its box by a fraction of a pixel, which the whole
      // pixels of scrollWidth and clientWidth round away ("Толықтыру", 63.56 px in 63.20, showed "Толықты…"):
      // measured in fractions here.
      if (
        (clip === "hidden" || clip === "clip") &&
        getComputedStyle(el).textOverflow === "ellipsis" &&
        el.children.length === 0 &&
        el.textContent?.trim()
      ) {
        const range = document.createRange();
        range.selectNodeContents(el);
        const style = getComputedStyle(el);
        const room =
          el.getBoundingClientRect().width -
          Number.parseFloat(style.paddingLeft) -
          Number.parseFloat(style.paddingRight);
        const text = range.getBoundingClientRect().width;
        if (text > room + 0.1) {
          say(el.textContent ?? "", Math.round(text * 100) / 100, Math.round(room * 100) / 100);
          continue;
        }
      }

      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      if (!own) continue;
      const range = document.createRange();
      range.selectNodeContents(el);
      const text = range.getBoundingClientRect();
      // Cut by the element itself (an ellipsis, overflow) or by a clipping box around it (a segment, a button).
      let cutBy: Element | null = null;
      for (let box: Element | null = el; box && box !== document.body && !cutBy; box = box.parentElement) {
        const style = getComputedStyle(box);
        if (style.overflowX === "visible" && style.textOverflow !== "ellipsis") continue;
        const rect = box.getBoundingClientRect();
        if (text.right > rect.right + 1 || text.left < rect.left - 1) cutBy = box;
      }
      if (cutBy) say(el.textContent ?? "", text.width, cutBy.getBoundingClientRect().width);
      else if (text.right > width + 0.5 || text.left < -0.5) say(el.textContent ?? "", text.right, width);
    }
    if (document.documentElement.scrollWidth > width)
      problems.push(`page ${document.documentElement.scrollWidth} > ${width}`);
    return problems;
  });
}

/**
 * What the fixed tab bar must never have over or under it, on a screen that shows it: a progress bar (a
 * deposit's term, a partner's bonus) scrolled under the bar is painted under it, not over it; and a text field
 * or select of the screen given the focus while under the bar is scrolled out from under it (the browser keeps
 * the bar's height clear, scroll-padding-bottom). Each problem names the element; the page is scrolled back to the top.
 */
export async function underTabBar(page: Page): Promise<string[]> {
  const problems = await page.evaluate(async () => {
    const bar = document.querySelector<HTMLElement>(".tab-bar");
    if (!bar) return [];
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.getAttribute("name") ? `[name=${el.getAttribute("name")}]` : ""} "${(el.closest("[data-testid]")?.getAttribute("data-testid") ?? "").slice(0, 30)}"`;
    const out: string[] = [];
    const shown = (el: Element) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    };
    const screen = document.querySelector("[data-screen]");
    if (!screen) return [];
    for (const progress of screen.querySelectorAll("[role='progressbar']")) {
      if (!shown(progress)) continue;
      const top = bar.getBoundingClientRect().top;
      const box = progress.getBoundingClientRect();
      window.scrollBy(0, box.top + box.height / 2 - (top + 12));
      await frame();
      const now = progress.getBoundingClientRect();
      const y = now.top + now.height / 2;
      if (y <= bar.getBoundingClientRect().top) continue; // the page cannot scroll it that far
      const hit = document.elementFromPoint(now.left + now.width / 2, y);
      if (hit && !bar.contains(hit)) out.push(`over the tab bar: ${name(progress)}`);
    }
    // Fields one types into or picks from (a switch's or a radio's input is a hidden box inside its label).
    const fields = "input:not([type='checkbox']):not([type='radio']):not([type='hidden']), select, textarea";
    for (const field of screen.querySelectorAll<HTMLElement>(fields)) {
      if (!shown(field) || field.closest("[aria-hidden='true']") || field.tabIndex < 0) continue;
      (document.activeElement as HTMLElement | null)?.blur();
      const top = bar.getBoundingClientRect().top;
      window.scrollBy(0, field.getBoundingClientRect().top - (top + 4));
      await frame();
      if (field.getBoundingClientRect().top <= bar.getBoundingClientRect().top) continue; // cannot get under it
      field.focus();
      await frame();
      const bottom = field.getBoundingClientRect().bottom;
      if (bottom > bar.getBoundingClientRect().top + 1) out.push(`focused under the tab bar: ${name(field)}`);
    }
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
    await frame();
    return out;
  });
  return problems;
}
