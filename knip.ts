// Knip (`npm run knip`, a step of `npm test`): files nothing imports, exports nothing imports, dependencies
// used but not listed and listed but not used. Vite's, Vitest's and drizzle-kit's configs, index.html and the
// package's scripts are found by knip's own plugins; the entries below are the rest.
import type { KnipConfig } from "knip";

const config: KnipConfig = {
  entry: [
    // Bundled by the build (build/launch-preload.ts) and written into index.html.
    "src/app/launcher/main.ts",
    // Loaded by the build through Vite's module loader (build/launch-preload.ts): the painted blocks' markup.
    "src/app/launcher/first-screen.tsx",
    // Put in place of telegram-ui's own modules by vite.config.ts's `resolve.alias`.
    "src/components/section-header.tsx",
    "src/components/typography-text.tsx",
    "server/src/main.ts",
    // The build runs it in a process of its own (scripts/lib/server-build.mjs).
    "server/src/db/make-initial-data.ts",
    "scripts/*.{mjs,ts}",
    "build/*.{ts,mjs}",
    "tests/**/*.{ts,tsx}",
  ],
  project: [
    "src/**/*.{ts,tsx,js}",
    "server/src/**/*.ts",
    "contract/**/*.ts",
    "scripts/**/*.{mjs,ts}",
    "build/**/*.{ts,mjs}",
    "tests/**/*.{ts,tsx}",
  ],
  // A system tool (the test mail server's certificate), not a package.
  ignoreBinaries: ["openssl"],
};

export default config;
