// The build and the dev server: the plugins live in build/, the test projects in vitest.config.ts.
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { buttonSpinner } from "./build/button-spinner.ts";
import { cabinetLaunchChunk, cabinetTextsChunk, languageTextsChunk } from "./build/chunks.ts";
import { fallbackTexts } from "./build/fallback-texts.ts";
import { laterCode } from "./build/later-code.mjs";
import { launchPreload } from "./build/launch-preload.ts";
import { precompress } from "./build/precompress.ts";
import { productionBuild } from "./build/production-build.ts";

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** The API server a dev build talks to (`npm run dev` starts it beside Vite). */
const devApi = process.env.KASSA_DEV_API ?? "http://127.0.0.1:8787";

export default defineConfig({
  plugins: [
    react(),
    productionBuild,
    buttonSpinner,
    fallbackTexts,
    launchPreload,
    // The dialogs and sheets the cabinet's first screen opens on a tap: downloaded ahead, evaluated on the tap.
    laterCode({
      exchange: /src[\\/]features[\\/]balance[\\/]components[\\/]exchange-dialog\.tsx$/,
      details: /src[\\/]features[\\/]operations[\\/]components[\\/]operation-details\.tsx$/,
      subscription: /src[\\/]features[\\/]subscription[\\/]components[\\/]subscription-sheet\.tsx$/,
    }),
    precompress,
  ],
  resolve: {
    alias: [
      { find: /^@contract$/, replacement: r("./contract/index.ts") },
      { find: /^@contract\/(.*)$/, replacement: `${r("./contract")}/$1` },
      { find: /^@\/(.*)$/, replacement: `${r("./src")}/$1` },
      // telegram-ui's Section header renders an h1; ours is the same header as an h2 (src/components/section-header.tsx).
      { find: /^\.\/components\/SectionHeader\/SectionHeader$/, replacement: r("./src/components/section-header.tsx") },
      // Its Subheadline and Headline are h6 / h5 wherever it uses them (a row's subtitle, a button's label): plain
      // text instead, headings only where a section starts (src/components/typography-text.tsx).
      {
        find: /^(\.\.\/)+Typography\/(Subheadline\/Subheadline|Headline\/Headline)$/,
        replacement: r("./src/components/typography-text.tsx"),
      },
      // wouter takes useSyncExternalStore from the package that brings it to React 17 and older; React 19 has its own.
      { find: /^use-sync-external-store\/shim\/index\.js$/, replacement: "react" },
    ],
  },
  // A JSON module (the locale files) is its default export only: with a named export per top-level key as well,
  // each locale chunk listed its keys twice more (docs/decisions.md#bundle-budget). The app reads only `default`.
  json: { namedExports: false },
  server: {
    proxy: { "/api": { target: devApi, changeOrigin: false } },
  },
  build: {
    target: "es2022",
    sourcemap: false,
    assetsInlineLimit: 0,
    // No module preload polyfill (~0.4 KB gzip in the entry): every browser the app is built for but Safari before
    // 17 preloads modules, and where one does not the launcher's preloads settle at once and the imports ask for the
    // files (docs/launch-performance.md).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The plugins' time is known and meant (the Brotli copies at quality 11, the launcher's templates rendered
      // from the app's components): the bundler's note on slow plugins would only read as a fault in every build.
      checks: { pluginTimings: false },
      output: {
        codeSplitting: {
          groups: [
            // The entry's chunk: the entry's code (`src/main.tsx` and all it imports) with the form kit the login
            // screen needs, as one file: split by the screens that share it, the form kit cost the first screen a
            // kilobyte of chunk overhead (docs/decisions.md#the-form-kit), and as a file beside the entry's it cost
            // every launch 2.1 KB gzip (the names the two files passed each other, and each compressed on its own).
            // So the page's entry is nothing but imports: Vite then names this chunk's script in the page itself,
            // and there is no entry file of a few bytes to ask for first.
            // Not the rules (they bring zod).
            // With it, the blocks the login and the cabinet both show (sections, cells, the title, the brand header,
            // the language switch): as seven small files they cost each of those launches seven requests. The
            // invitation's reader too, which the login and the registration share.
            {
              name: "index",
              // With it the base of TanStack Query that the entry and the cabinet's chunks share (as a file of its own
              // it cost every launch a request), and two modules of a few dozen bytes that screens share (the mutation
              // options' identity function, the registration's "code sent" state): each was a file of its own, asked
              // for on its own, and too small to compress.
              test: /src[\\/]main\.tsx$|@tanstack[\\/](query-core|react-query)[\\/]build[\\/]modern[\\/](utils|retryer|focusManager|onlineManager|timeoutManager|notifyManager|removable|subscribable|environmentManager|QueryClientProvider|mutationOptions)\.js$|src[\\/]features[\\/]auth[\\/]model[\\/]phone-code-sent\.ts$|(src[\\/](lib[\\/]form[\\/](use-form|field-errors|messages|focus|use-in-flight)|lib[\\/]referral|components[\\/]form[\\/](text-field|form-footer|password-field|message-text))\.tsx?|src[\\/]components[\\/](link-cell|brand-header|kassa-mark|language-switcher)\.tsx|telegram-ui[\\/]dist[\\/]components[\\/](Blocks[\\/](Section|Cell|List)|Navigation[\\/]SegmentedControl|Typography[\\/]Title)[\\/].*\.js)$/,
            },
            // telegram-ui's Spinner on its own: the Button loads it when it first shows one (`buttonSpinner`), the screens'
            // place while their code loads when it first shows (`components/content-spinner.tsx`).
            {
              name: "telegram-spinner",
              // Not the Button's lazy module itself (a virtual module, its id starts with \0).
              test: /^(?!\0).*(telegram-ui[\\/]dist[\\/]components[\\/]Feedback[\\/]Spinner[\\/]|src[\\/]components[\\/]telegram-ui-spinner\.tsx$)/,
              priority: 2,
              includeDependenciesRecursively: false,
            },
            // The cabinet's launch in one file rather than dozens: its frame, its first screen and what only
            // they use (docs/architecture.md#how-a-launch-flows). Over HTTP/1.1 a browser fetches six files at
            // a time; at a phone's round trip every six more cost one more.
            {
              name: cabinetLaunchChunk,
              debugName: "cabinet-launch",
              priority: 1,
              includeDependenciesRecursively: false,
            },
            // The texts of the cabinet's frame and first screen, one file per language (common stays apart: the
            // login reads it too).
            { name: cabinetTextsChunk, debugName: "texts-cabinet", includeDependenciesRecursively: false },
            // Each language's common texts with the map of its text files (src/config/i18n.ts).
            { name: languageTextsChunk, debugName: "texts", includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
