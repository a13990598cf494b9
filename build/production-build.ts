// Makes every build a production build, whatever NODE_ENV the shell passes on.
import type { Plugin } from "vite";

/**
 * A build is a production build whatever NODE_ENV the shell passes on (the e2e setup runs under vitest's
 * `test`, `npm start` may run with `development` for the server): with another value Vite bundles React's
 * development build, three times the size of the first screen's react-dom.
 */
export const productionBuild: Plugin = {
  name: "kassa:production-build",
  apply: "build",
  config() {
    process.env.NODE_ENV = "production";
  },
};
