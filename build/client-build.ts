// When a plugin of the app's build runs: in the browser's build, not in the server's build of the first renders.
import type { Plugin } from "vite";

/**
 * The `apply` of a plugin that shapes the app's files for the browser: a build, but not the first renders' module
 * built for the server (`build.ssr`, build/launch-preload.ts), which has no page, chunks or compressed copies.
 */
export const clientBuild: Exclude<Plugin["apply"], string | undefined> = (config, { command }) =>
  command === "build" && !config.build?.ssr;
