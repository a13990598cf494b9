// What the build writes into the launcher (`Launch`, made and typed in `build/launch-preload.ts`) and where it puts
// the painted blocks' markup in the page.
import type { Launch } from "../../../build/launch-preload";

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
