/**
 * axe-core run in the page itself, put in once per document. @axe-core/playwright's `analyze()` evaluates
 * axe-core's source (1.5 MB) into the page at every call, then opens a blank page, evaluates the source there
 * too and finishes the run in it (its way of joining the results of several frames): most of the CPU of a walk
 * that reads every step. Kassa's pages have one frame, so `axe.run` in the page gives the same findings (it is
 * what the library's own "legacy mode" runs); a page with frames still goes through AxeBuilder.
 */
import AxeBuilder from "@axe-core/playwright";
import axe, { type AxeResults, type RunOptions } from "axe-core";
import type { Page } from "playwright-core";

type WithAxe = { axe?: { run(context: Document, options: RunOptions): Promise<AxeResults> } };

/**
 * axe-core's findings on `page` with `options` (`runOnly` a list of rules or tags; none: every rule it runs by default).
 * Every violation comes back with all its elements; of the passes, the incomplete and the inapplicable only one
 * element each (axe-core's `resultTypes`): nobody here reads them, and describing every element that passed cost
 * half of a whole run's time (the cabinet: 85 ms instead of 200).
 */
export async function runAxe(page: Page, runOptions: RunOptions = {}): Promise<AxeResults> {
  const options: RunOptions = { resultTypes: ["violations"], ...runOptions };
  if (page.frames().length > 1) return new AxeBuilder({ page }).options(options).analyze();
  // A navigation in the app keeps the document (and axe with it); a load starts a new one.
  if (!(await page.evaluate(() => typeof (window as WithAxe).axe?.run === "function"))) await page.evaluate(axe.source);
  return page.evaluate((o) => {
    const found = (window as WithAxe).axe;
    if (!found) throw new Error("axe-core is not in the page");
    return found.run(document, o);
  }, options);
}
