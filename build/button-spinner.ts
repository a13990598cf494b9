// Loads telegram-ui's Spinner for the Button only when a button first shows one.

import type { Plugin } from "vite";
import { clientBuild } from "./client-build.ts";

/** telegram-ui's Button and the Spinner module it imports for its `loading` state. */
const BUTTON_MODULE = /@telegram-apps[\\/]telegram-ui[\\/]dist[\\/]components[\\/]Blocks[\\/]Button[\\/]Button\.js$/;
const SPINNER_IMPORT = /[\\/]Feedback[\\/]Spinner[\\/]Spinner(\.js)?$/;
const LAZY_SPINNER = "\0kassa:button-spinner";

/**
 * telegram-ui's Button draws its `loading` state with telegram-ui's Spinner, whose six SVG variants (about 3 KB
 * gzip) the login's first screen would download for a spinner it shows only once the form is sent. For the
 * Button, the Spinner loads when a button first shows it (`React.lazy`; nothing is drawn for that moment); the
 * screens that show a Spinner themselves import it as before. Its files are a chunk of their own
 * (`telegram-spinner`), so loading it never brings a screen's code.
 */
export const buttonSpinner: Plugin = {
  name: "kassa:button-spinner",
  apply: clientBuild,
  enforce: "pre",
  async resolveId(source, importer) {
    if (source === LAZY_SPINNER) return LAZY_SPINNER;
    if (!importer || !BUTTON_MODULE.test(importer) || !SPINNER_IMPORT.test(source)) return null;
    const real = await this.resolve(source, importer, { skipSelf: true });
    return real ? `${LAZY_SPINNER}?${real.id}` : null;
  },
  load(id) {
    if (!id.startsWith(`${LAZY_SPINNER}?`)) return null;
    const real = JSON.stringify(id.slice(LAZY_SPINNER.length + 1));
    return [
      'import { createElement, lazy, Suspense } from "react";',
      `const Real = lazy(() => import(${real}).then((module) => ({ default: module.Spinner })));`,
      "export const Spinner = (props) => createElement(Suspense, { fallback: null }, createElement(Real, props));",
    ].join("\n");
  },
};
