/**
 * Copying inside Telegram. Telegram Web K and A host the app in a frame whose `allow` attribute grants
 * no `clipboard-write`, so `navigator.clipboard.writeText` is refused there (a permissions-policy
 * error). Inside Telegram the boot wraps it: when the Clipboard API refuses, the text is copied the
 * older way, a selection and `document.execCommand("copy")` still under the user's tap; when that is
 * refused too, a sheet shows the text selected with a hint to copy it by hand (`ManualCopySheet`), and
 * the call still rejects, so the caller never says "Copied" for a copy that did not happen.
 */
import { requestManualCopy } from "./manual-copy";

/**
 * Copies `text` through a selection and `execCommand("copy")`, which a frame without `clipboard-write`
 * still allows under a tap. The helper field goes beside the focused element, so a sheet's focus trap
 * keeps it. True when the browser says it copied.
 */
function copyBySelection(text: string): boolean {
  const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const area = document.createElement("textarea");
  area.value = text;
  area.readOnly = true;
  area.setAttribute("aria-hidden", "true");
  area.tabIndex = -1;
  area.style.cssText = "position:fixed;top:0;left:0;width:1px;height:1px;padding:0;border:0;opacity:0";
  (active?.closest("[role='dialog']") ?? document.body).append(area);
  let copied = false;
  try {
    area.focus({ preventScroll: true });
    area.select();
    area.setSelectionRange(0, text.length);
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  area.remove();
  active?.focus({ preventScroll: true });
  return copied;
}

/** Wraps `navigator.clipboard.writeText` with the two fallbacks above (inside Telegram only). */
export function installCopyFallback(): void {
  const clipboard = typeof navigator === "undefined" ? undefined : navigator.clipboard;
  const original = clipboard?.writeText?.bind(clipboard);
  const writeText = async (text: string): Promise<void> => {
    let refusal: unknown = new DOMException("Copying is not allowed here", "NotAllowedError");
    if (original) {
      try {
        await original(text);
        return;
      } catch (error) {
        refusal = error;
      }
    }
    if (copyBySelection(text)) return;
    requestManualCopy(text);
    throw refusal;
  };
  try {
    if (clipboard) Object.defineProperty(clipboard, "writeText", { value: writeText, configurable: true });
    else Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
  } catch (error) {
    console.warn("[kassa] copy fallback not installed", error);
  }
}
