/**
 * Whether a screen is still coming in: a placeholder stands where it will be (the spinner while a screen's code
 * and the session load, a form's skeleton while what it offers loads). Telegram's Back waits for it before it
 * hides (boot.ts): the screen that comes may show it again (a form's Main button does), and Back would flicker
 * off and on.
 */
let placeholders = 0;
const waiting = new Set<() => void>();

/** A placeholder is up; the returned function takes it down. */
export function placeholderUp(): () => void {
  placeholders += 1;
  let down = false;
  return () => {
    if (down) return;
    down = true;
    placeholders -= 1;
    if (placeholders > 0) return;
    const ready = [...waiting];
    waiting.clear();
    for (const run of ready) run();
  };
}

/** Runs `run` once no placeholder is up (at once when none is); the returned function cancels a wait. */
export function whenScreenIn(run: () => void): () => void {
  if (placeholders === 0) {
    run();
    return () => {};
  }
  waiting.add(run);
  return () => waiting.delete(run);
}
