/**
 * The namespaces every cabinet launch loads beside `common`: the frame's (the tab bar, failures, form checks, amounts)
 * and the cabinet's first screen's. The build puts them in one file per language (`texts-cabinet-<language>`,
 * `build/chunks.ts` reads this list), so a launch at any cabinet screen gets them all in that one download and its
 * screens do not suspend on one of them.
 */
import type { Namespace } from "./i18n";

export const CABINET_TEXTS = [
  "nav",
  "errors",
  "validation",
  "money",
  "cabinet",
  "exchange",
  "subscription",
  "operations",
  "enums",
] as const satisfies readonly Namespace[];
