/**
 * What the build writes into the launcher (`build/launch-preload.ts`): the built files' names, the launch's calls
 * (their URLs from the route table, `lib/launch-calls.ts`) and what its painted blocks wear.
 */
export interface ScreenFiles {
  code: string[];
  css: string[];
}

interface Launch {
  files: {
    /** The entry chunk's script, the code it imports and its stylesheets. */
    entry: { script: string; code: string[]; css: string[] };
    cabinet: ScreenFiles & { texts: Record<string, string[]> };
    login: ScreenFiles & { texts: Record<string, string[]> };
    /** The SDK's boot, which every launch inside Telegram runs. */
    telegram: ScreenFiles;
  };
  /** Relative to the API's base, in the order they go out (`LAUNCH_CALLS`). */
  calls: { check: string; painted: [work: string, balance: string, overview: string]; rest: string[] };
  paint: {
    /** Per language: the headline's label (`{{currency}}` to fill). */
    texts: Record<string, { total: string }>;
    /** Per language: the login's first render down to its brand header (`templates.tsx`). */
    login: Record<string, string>;
    /** Per language, per telegram-ui look: the cabinet's first render on a phone (`templates.tsx`). */
    cabinet: Record<string, Record<"base" | "ios", string>>;
    /** The classes telegram-ui's root adds for the dark look. */
    classes: { dark: string };
    /** The stylesheets' rules for what the cabinet's and the login's painted blocks wear. */
    css: string;
    loginCss: string;
  };
}

declare const __KASSA_LAUNCH__: Launch;

export const LAUNCH: Launch = __KASSA_LAUNCH__;
