// Bundles the launcher (src/app/launcher/) from the app's own modules and writes it into the built index.html, with
// the build's file names, the launch's calls from the route table and what its painted blocks wear.

import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PurgeCSS } from "purgecss";
import { build } from "rolldown";
import { type Plugin, build as viteBuild } from "vite";
import { FIRST_SCREEN_MODULE } from "../contract/built-app.ts";
import { LANGUAGES } from "../contract/enums.ts";
import type { OverviewReply } from "../contract/home.ts";
import type * as LaunchCalls from "../contract/launch-calls.ts";
import type { User } from "../contract/user.ts";
import type * as FirstScreen from "../src/app/launcher/first-screen.tsx";
import { clientBuild } from "./client-build.ts";
import { chunkFiles, entryChunk } from "./later-code.mjs";

const APPEARANCES = ["light", "dark"] as const;
const r = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

/** A screen's files (its code and stylesheets, in order), its texts by language and what is asked for last. */
interface ScreenFiles {
  files: string[];
  texts: Record<string, string[]>;
  /** Asked for once the entry has come. */
  last: string[];
}

/**
 * What the build writes into the launcher (`__KASSA_LAUNCH__`, read by `src/app/launcher/build-time.ts`): the built
 * files' names, and the first screen's call with the URLs of the calls whose replies it carries (from the route
 * table, `contract/launch-calls.ts`).
 */
export interface Launch {
  files: {
    /** The entry chunk's script, and its files: that script, the code it imports and its stylesheets. */
    entry: { script: string; files: string[] };
    cabinet: ScreenFiles;
    login: ScreenFiles;
    /** The SDK's boot, which every launch inside Telegram runs. */
    telegram: string[];
  };
  /**
   * Relative to the API's base: the first screen's call (its query added), the calls it answers and of those the
   * ones the app sends without its token.
   */
  firstScreen: { url: string; carries: string[]; tokenless: string[] };
}

/** An investor for the cabinet's renders the build reads the stylesheet rules from: a name, one unread notice. */
const SAMPLE_INVESTOR: User = {
  id: "0",
  login: "investor",
  fullName: "Investor",
  email: null,
  phone: null,
  phoneConfirmed: false,
  telegramLinked: false,
  language: "en",
  avatarUrl: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  subscription: { active: false, until: null },
  notifications: { unread: 1 },
};
/** Its overview: a balance and a deposit in every currency (each line drawn, and the dividers between them). */
const SAMPLE_HOLDINGS: OverviewReply = {
  currency: "USDT",
  totalUsdt: "4000",
  balanceUsdt: "400",
  onDepositUsdt: "3600",
  lines: (["USDT", "BTC", "ETH", "TON"] as const).map((currency) => ({
    currency,
    balance: "0.1",
    onDeposit: "0.9",
    totalUsdt: "1000",
  })),
  current: {
    currency: "USDT",
    total: "4000",
    balance: "400",
    onDeposit: "3600",
    lines: { USDT: "1000", BTC: "1000", ETH: "1000", TON: "1000" },
  },
  rates: { USDT: "1", BTC: "90000", ETH: "3000", TON: "3" },
};

/**
 * The investors the cabinet's first screen is rendered for to choose its stylesheet rules: the one above, and one
 * who has just signed up (no name, nothing unread, nothing held, a subscription running).
 */
const SAMPLES: { user: User; overview: OverviewReply }[] = [
  { user: SAMPLE_INVESTOR, overview: SAMPLE_HOLDINGS },
  {
    user: {
      ...SAMPLE_INVESTOR,
      fullName: null,
      subscription: { active: true, until: "2027-01-01T00:00:00.000Z" },
      notifications: { unread: 0 },
    },
    overview: {
      ...SAMPLE_HOLDINGS,
      totalUsdt: "0",
      balanceUsdt: "0",
      onDepositUsdt: "0",
      lines: [],
      current: {
        currency: "USDT",
        total: "0",
        balance: "0",
        onDeposit: "0",
        lines: { USDT: "0", BTC: "0", ETH: "0", TON: "0" },
      },
    },
  },
];

/**
 * A launch's calls and code, at their true priority: a small classic script the build writes into `index.html`
 * (inline, at the top of the head; the server allows it by its hash) sends the first screen's calls with the kept
 * token the moment the parser reaches it (the API client takes those replies, `lib/early-replies.ts`), announces
 * (module preload) the code and texts of the screen the launch will show (the cabinet's with a saved user at the
 * cabinet's start, the login's without one) and inserts the entry chunk: the page has no static entry tag, so
 * the launcher asks for the entry, its imports and the screen's code and texts once the balance it paints itself
 * is on screen, when it paints one (`src/app/launcher/`). Files are named after the build, so the script is
 * bundled here, with their names defined in (`__KASSA_LAUNCH__`, `src/app/launcher/build-time.ts`).
 */
let apiUrl: string | undefined;
let outDir = r("dist");
export const launchPreload: Plugin = {
  name: "kassa:launch-preload",
  apply: clientBuild,
  enforce: "post",
  configResolved(config) {
    apiUrl = config.env.VITE_API_URL;
    outDir = resolve(config.root, config.build.outDir);
  },
  async generateBundle(_options, bundle) {
    const chunks = Object.values(bundle).filter((file) => file.type === "chunk");
    const entry = entryChunk(bundle);
    const html = bundle["index.html"];
    if (!entry || html?.type !== "asset") return;
    // The entry's tags Vite wrote (the scripts of its chunk and of the chunks that one imports, the module preloads,
    // its stylesheets) leave the page: the launcher asks for those files itself.
    const tags = entryTags(String(html.source), entry.fileName);
    const loaded = new Set([entry.fileName, ...entry.imports, ...tags.code]);
    /** The chunk of a screen's module: its own, or the group's it was put in (then the chunk has no facade). */
    /** The chunks (and their CSS) of `roots` and what they import, less what the entry loads anyway. */
    const screen = (...roots: RegExp[]) => chunkFiles(bundle, roots, loaded);
    /**
     * Per language, the files of the namespaces of the groups `group` matches (by chunk name; a language's `common`
     * is in `texts-<language>`, with the map of its files) and of those `pattern` matches (by module).
     */
    const texts = (group: RegExp, pattern?: RegExp) => {
      const files: Record<string, string[]> = {};
      for (const chunk of chunks) {
        const language = group.exec(chunk.name)?.[1] ?? pattern?.exec(chunk.facadeModuleId ?? "")?.[1];
        if (language) files[language] = [...(files[language] ?? []), chunk.fileName];
      }
      return files;
    };
    const cabinet = screen(
      /src[\\/]app[\\/]layouts[\\/]cabinet-layout\.tsx$/,
      /src[\\/]app[\\/]routes[\\/]cabinet\.tsx$/,
    );
    const login = screen(/src[\\/]app[\\/]routes[\\/]login\.tsx$/);
    // The cabinet's launch chunk (build/chunks.ts), the one large file besides the entry: asked for once the entry
    // has come.
    const last = chunks.filter((chunk) => chunk.name === "cabinet-launch").map((chunk) => chunk.fileName);
    const files = {
      entry: { script: entry.fileName, files: [...tags.code, ...tags.css] },
      cabinet: {
        files: [...cabinet.code, ...cabinet.css],
        texts: texts(/^texts-(?:cabinet-)?(\w+)$/),
        last,
      },
      login: {
        files: [...login.code, ...login.css],
        texts: texts(/^texts-(\w+)$/, /locales[\\/](\w+)[\\/]auth\.json$/),
        last: [],
      },
      // Inside Telegram every launch boots the SDK (src/tma/boot.ts): its code announced beside the entry, not after.
      telegram: screen(/src[\\/]tma[\\/]boot\.ts$/).code,
    };
    // The rules the painted block needs, from the stylesheets the cabinet's first render has (the entry's, then
    // the cabinet's), so it paints styled without waiting for them behind the app's code. The entry's are those its
    // page linked (the entry chunk's own and its imports': its code is in a chunk it imports, vite.config.ts).
    const stylesheets = (screenCss: string[]) =>
      [...tags.css, ...screenCss].map((file) => {
        const asset = bundle[file];
        return asset?.type === "asset" ? String(asset.source) : "";
      });
    // The first renders' module, built for the server beside the app: the login's header rendered from it in each
    // language into the page, and the cabinet's first screen in every language and look with figures, an unread
    // count and a currency line (as the server renders it per launch) for the rules its stylesheet keeps.
    const screens = await buildFirstScreen(outDir);
    const logins = Object.fromEntries(
      LANGUAGES.flatMap((language) =>
        APPEARANCES.map((appearance) => [`${language}-${appearance}`, screens.loginTemplate(language, appearance)]),
      ),
    );
    const cabinetHtml = LANGUAGES.flatMap((language) =>
      (["base", "ios"] as const).flatMap((platform) =>
        APPEARANCES.map((appearance) =>
          SAMPLES.map((sample) => screens.cabinetScreen({ language, platform, appearance, ...sample }) ?? "").join(""),
        ),
      ),
    );
    // The first screen's call and the launch's calls it answers, their URLs from the route table (relative to the
    // API's base).
    const launch: Launch = { files, firstScreen: await launchCalls() };
    // The painted blocks' markup and rules, at the end of the page as inert templates (`paint.ts` reads them by
    // id): in the script they came before its calls, which waited for their bytes (~12 KB gzip) to arrive.
    const template = (id: string, html: string) => `<template id="kassa-paint-${id}">${html}</template>`;
    const style = async (css: string[], html: string[]) => `<style>${await rulesFor(css, html)}</style>`;
    const painted = [
      template("cabinet-css", await style(stylesheets(cabinet.css), cabinetHtml)),
      template("login-css", await style(stylesheets(login.css), Object.values(logins))),
      ...Object.entries(logins).map(([look, html]) => template(`login-${look}`, html)),
    ];
    // Inline: as a file of its own it cost a round trip before its calls went out. A classic script (a module or
    // `async` one waits to be scheduled), its names its own (an IIFE). `</` is escaped so nothing in it can close
    // the script element; the server allows it by its hash (server/src/plugins/security.ts).
    const built = await build({
      input: r("src/app/launcher/main.ts"),
      write: false,
      logLevel: "silent",
      resolve: { alias: { "@contract": r("contract"), "@": r("src") }, extensions: [".ts", ".tsx", ".js"] },
      transform: {
        define: {
          __KASSA_LAUNCH__: JSON.stringify(launch),
          "import.meta.env.VITE_API_URL": apiUrl === undefined ? "undefined" : JSON.stringify(apiUrl),
        },
      },
      // The contract's enumerations come with their zod schemas, which the launcher never uses: they are deferred, and
      // `deferred` is marked free of side effects (contract/deferred.ts), so they go.
      output: { format: "iife", minify: true },
    });
    const source = (built.output[0]?.code ?? "").trim().replace(/<\//g, "<\\/");
    // Right after the API's address (the launcher reads it): before the page's other tags, so its calls go out
    // first.
    const marker = /<meta name="kassa:api-url"[^>]*>\n?/;
    if (!marker.test(tags.html)) throw new Error("launchPreload: index.html has no kassa:api-url meta");
    if (!tags.html.includes("</body>")) throw new Error("launchPreload: index.html has no </body>");
    html.source = tags.html
      .replace(marker, (meta) => `${meta.trimEnd()}\n    <script>${source}</script>\n`)
      .replace("</body>", () => `  ${painted.join("\n    ")}\n  </body>`);
  },
};

/**
 * The first renders' module (`src/app/launcher/first-screen.tsx`) built for Node into `<outDir>/.server/` (a dot
 * folder, which the server does not serve: it renders the cabinet's first screen from it per launch), then imported
 * for what the build renders from it. Built with this config (its aliases, its stylesheet imports,
 * `import.meta.glob`), telegram-ui bundled in (its modules do not name their files), the other packages imported
 * from node_modules.
 */
async function buildFirstScreen(outDir: string): Promise<typeof FirstScreen> {
  const file = join(outDir, FIRST_SCREEN_MODULE);
  await viteBuild({
    configFile: r("vite.config.ts"),
    logLevel: "warn",
    build: {
      ssr: r("src/app/launcher/first-screen.tsx"),
      outDir: dirname(file),
      emptyOutDir: true,
      copyPublicDir: false,
      rolldownOptions: { output: { codeSplitting: false, entryFileNames: basename(file) } },
    },
    ssr: { noExternal: ["@telegram-apps/telegram-ui"] },
  });
  return import(`${pathToFileURL(file).href}?${Date.now()}`);
}

/**
 * A module of this repository bundled for this process and imported: its modules import one another without file
 * extensions and through the app's aliases, as the app's do, which the config's own loading would not take. The
 * packages stay outside (imported from node_modules), but for telegram-ui, whose modules do not name their files.
 */
async function buildForNode<T>(input: string, name: string): Promise<T> {
  const built = await build({
    input: r(input),
    write: false,
    logLevel: "silent",
    platform: "node",
    resolve: { alias: { "@contract": r("contract"), "@": r("src") }, extensions: [".ts", ".tsx", ".js"] },
    external: /^(react|react-dom|i18next|react-i18next|zod)(\/|$)/,
    transform: { jsx: "react-jsx" },
    output: { format: "esm" },
  });
  const file = r(`node_modules/.cache/kassa-launcher/${name}.mjs`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, built.output[0]?.code ?? "");
  return import(`${pathToFileURL(file).href}?${Date.now()}`);
}

/**
 * The launch's calls (`contract/launch-calls.ts`) and the first screen's, bundled for this process: the contract's
 * modules import one another without file extensions, as the app's do, which the config's own loading would not take.
 */
async function launchCalls(): Promise<Launch["firstScreen"]> {
  const calls = await buildForNode<typeof LaunchCalls>("contract/launch-calls.ts", "launch-calls");
  return {
    url: calls.FIRST_SCREEN_URL,
    carries: [...calls.LAUNCH_CALL_URLS],
    tokenless: [...calls.TOKENLESS_LAUNCH_CALL_URLS],
  };
}

/**
 * The tags Vite wrote into the built page for the entry chunk `entry`: the module scripts (its own, and those of
 * the chunks it imports when the page's entry was nothing but imports), the module preloads of the chunks it
 * imports and its stylesheets, and the page without them. The build fails when its script is not there (the
 * launcher would insert an entry the page does not have).
 */
function entryTags(html: string, entry: string) {
  const code: string[] = [];
  const css: string[] = [];
  const scripts: string[] = [];
  const rest = html
    .replace(/\s*<script type="module" crossorigin src="\/([^"]+)"><\/script>/g, (_tag, file: string) => {
      scripts.push(file);
      return "";
    })
    .replace(/\s*<link rel="modulepreload" crossorigin href="\/([^"]+)">/g, (_tag, file: string) => {
      code.push(file);
      return "";
    })
    .replace(/\s*<link rel="stylesheet" crossorigin href="\/([^"]+)">/g, (_tag, file: string) => {
      css.push(file);
      return "";
    });
  if (!scripts.includes(entry)) throw new Error(`launchPreload: the built page has no script of ${entry}`);
  return { html: rest, code: [entry, ...scripts.filter((file) => file !== entry), ...code], css };
}

/**
 * The rules of the stylesheets that can style the painted blocks `html` (PurgeCSS reads the markup and drops every
 * rule whose selector names a class, tag or attribute it does not have), with the attributes whose values the
 * renders do not all show kept (inside Telegram `data-telegram`, the client's platform, as the server renders it:
 * `first-screen.tsx`); keyframes and font faces nothing kept uses go too.
 */
async function rulesFor(css: string[], html: string[]): Promise<string> {
  const purged = await new PurgeCSS().purge({
    content: html.map((raw) => ({ raw, extension: "html" })),
    css: css.map((raw) => ({ raw })),
    dynamicAttributes: ["data-telegram"],
    keyframes: true,
    fontFace: true,
  });
  return purged.map((sheet) => sheet.css).join("");
}
