// Asking for a built file before it is used: one way for the launcher (the launch's code and stylesheets) and the
// warm-ups (a dialog's code before its tap, `warm-up.ts`).

export interface PreloadOptions {
  /** A stylesheet applied at once (it styles only what is not there yet), not only downloaded. */
  applyStyles?: boolean;
  /** After what the screen shows: `fetchpriority=low`. */
  low?: boolean;
}

/**
 * A link in the head asking for `file` (a path from the site's root): a module by module preload (downloaded and
 * parsed, run only when imported), as a script's preload where the browser does not preload modules (Safari before
 * 17: the build has no module preload polyfill); a stylesheet by preload, or applied with `applyStyles`. Cross-origin
 * mode, as the module scripts and Vite's own preloads ask, so the browser takes one download for both. Null when the
 * page has a link to the file already (Vite's import helper skips the files linked here the same way).
 */
export function preloadFile(file: string, { applyStyles = false, low = false }: PreloadOptions = {}) {
  const link = document.createElement("link");
  link.href = `/${file}`;
  if ([...document.querySelectorAll("link")].some((other) => other.href === link.href)) return null;
  const style = file.endsWith(".css");
  const modules = link.relList.supports("modulepreload");
  link.rel = style ? (applyStyles ? "stylesheet" : "preload") : modules ? "modulepreload" : "preload";
  if (link.rel === "preload") link.as = style ? "style" : "script";
  link.crossOrigin = "";
  if (low) link.fetchPriority = "low";
  document.head.append(link);
  return link;
}
