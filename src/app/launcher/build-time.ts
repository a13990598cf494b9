/**
 * What the build writes into the launcher (`build/launch-preload.ts`): the built files' names, the launch's calls
 * (their URLs from the route table, `lib/launch-calls.ts`) and what its painted blocks wear; and where it puts
 * their markup in the page.
 */
interface ScreenFiles {
  code: string[];
  css: string[];
}

interface Launch {
  files: {
    /** The entry chunk's script, the code it imports and its stylesheets. */
    entry: { script: string; code: string[]; css: string[] };
    /** `last`: of its code, what is asked for once the link carries nothing but the entry. */
    cabinet: ScreenFiles & { texts: Record<string, string[]>; last: string[] };
    login: ScreenFiles & { texts: Record<string, string[]>; last?: undefined };
    /** The SDK's boot, which every launch inside Telegram runs. */
    telegram: ScreenFiles;
  };
  /** Relative to the API's base, in the order they go out (`LAUNCH_CALLS`). */
  calls: { check: string; painted: [work: string, balance: string, overview: string]; rest: string[] };
  paint: {
    /** Per language: the headline's label (`{{currency}}` to fill). */
    texts: Record<string, { total: string }>;
    /** The classes telegram-ui's root adds for the dark look. */
    classes: { dark: string };
  };
}

/**
 * The painted blocks' markup, written by the build at the end of the page as `<template id="kassa-paint-…">`:
 * per language the login's first render down to its brand header (`login-<language>`) and, per telegram-ui look,
 * the cabinet's first render on a phone (`cabinet-<language>-<base|ios>`), rendered from the app's components
 * (`templates.tsx`); and the stylesheets' rules for what each wears (`cabinet-css`, `login-css`, a `<style>`).
 */
export function paintTemplate(id: string): Element | null {
  const template = document.getElementById(`kassa-paint-${id}`);
  const block = template instanceof HTMLTemplateElement ? template.content.firstElementChild : null;
  return block ? (block.cloneNode(true) as Element) : null;
}

declare const __KASSA_LAUNCH__: Launch;

export const LAUNCH: Launch = __KASSA_LAUNCH__;
