/**
 * What the build writes into the launcher (`build/launch-preload.ts`): the built files' names, the first screen's
 * call with the URLs of the calls whose replies it carries (from the route table, `contract/launch-calls.ts`); and
 * where it puts the painted blocks' markup in the page.
 */
/** A screen's files (its code and stylesheets, in order), its texts by language and what is asked for last. */
interface ScreenFiles {
  files: string[];
  texts: Record<string, string[]>;
  /** Asked for once the entry has come. */
  last: string[];
}

interface Launch {
  files: {
    /** The entry chunk's script, and its files: that script, the code it imports and its stylesheets. */
    entry: { script: string; files: string[] };
    cabinet: ScreenFiles;
    login: ScreenFiles;
    /** The SDK's boot, which every launch inside Telegram runs. */
    telegram: string[];
  };
  /**
   * Relative to the API's base: the first screen's call (its query added), the calls it answers and of those the
   * ones the app sends without its token.
   */
  firstScreen: { url: string; carries: string[]; tokenless: string[] };
}

/**
 * The markup the build writes at the end of the page as `<template id="kassa-paint-…">`: per language and look the
 * login's first render down to its brand header (`login-<language>-<light|dark>`), rendered from the app's
 * components (`first-screen.tsx`), and the stylesheets' rules for what the painted blocks wear (`cabinet-css`,
 * `login-css`, a `<style>`).
 */
export function paintTemplate(id: string): string | null {
  const template = document.getElementById(`kassa-paint-${id}`);
  return template instanceof HTMLTemplateElement ? template.innerHTML : null;
}

declare const __KASSA_LAUNCH__: Launch;

export const LAUNCH: Launch = __KASSA_LAUNCH__;
