/**
 * The block the launcher painted in the boot spinner's place before this code ran (`src/app/launcher/paint.ts`,
 * `data-kassa-painted`: the cabinet's first screen or the login's header). The app's first render empties `#root`;
 * until the app shows what the block stands for, the block stays where it was, over the app (fixed, out of the flow,
 * nothing to click), then goes; at most 10 s.
 */
const SHOWN_BY: Record<string, string> = {
  // Its headline, or another screen (maintenance, the phone's confirmation).
  cabinet: "[data-testid='overview-total'], [data-screen]:not([data-screen='cabinet'])",
  login: "[data-screen]",
};
const LONGEST_MS = 10_000;

/** Started before the app's first render: the launcher may still paint until that render takes the spinner out. */
export function keepPaintedOver(root: HTMLElement): void {
  let block: HTMLElement | null = null;
  const cover = document.createElement("div");
  cover.className = "painted-cover";
  cover.setAttribute("aria-hidden", "true");
  const check = (ended?: boolean) => {
    block ??= root.querySelector<HTMLElement>(":scope > [data-kassa-painted]");
    if (block?.parentElement === root) return;
    if (ended || root.querySelector(SHOWN_BY[block?.dataset.kassaPainted ?? ""] ?? "[data-screen]")) {
      observer.disconnect();
      cover.remove();
    } else if (block && !cover.isConnected) {
      cover.append(block);
      document.body.append(cover);
    }
  };
  const observer = new MutationObserver(() => check());
  observer.observe(root, { childList: true, subtree: true });
  // A block painted already (the usual case): kept hold of before the render takes it out.
  check();
  setTimeout(check, LONGEST_MS, true);
}
