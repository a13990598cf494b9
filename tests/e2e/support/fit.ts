/** Whether a screen fits the phone: nothing loading left, and no text cut by its box or running off the screen. */
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
 * Every visible element with text of its own inside the screen and any open sheet: its text must fit its
 * box (a label cut by an ellipsis or by its clipping box measures wider than the box) and stay on the
 * screen; the page itself no wider than the window. Each problem names the text and the two widths.
 */
export async function cutTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const roots = [...document.querySelectorAll<HTMLElement>("[data-screen], [role='dialog']")];
    const problems: string[] = [];
    for (const root of roots)
      for (const el of [root, ...root.querySelectorAll<HTMLElement>("*")]) {
        if (el.closest(".visually-hidden, svg")) continue;
        const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
        if (!own) continue;
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        const range = document.createRange();
        range.selectNodeContents(el);
        const text = range.getBoundingClientRect();
        const style = getComputedStyle(el);
        const clips = style.overflowX !== "visible" || style.textOverflow === "ellipsis";
        if ((clips && text.width > box.width + 1) || text.right > width + 0.5)
          problems.push(
            `"${el.textContent?.trim().slice(0, 40)}" (${Math.round(text.width)} in ${Math.round(box.width)})`,
          );
      }
    if (document.documentElement.scrollWidth > width)
      problems.push(`page ${document.documentElement.scrollWidth} > ${width}`);
    return problems;
  });
}
