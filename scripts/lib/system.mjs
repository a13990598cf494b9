// What the tests need beyond npm: Debian's Chromium, PostgreSQL and nginx (the production rehearsal's
// TLS proxy, tests/e2e/production-rehearsal.test.ts). Installed when missing (as root), otherwise the
// run stops with the one command to type.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const NGINX_PATH = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

/**
 * The features Playwright turns off in every Chromium it starts (playwright-core's `chromiumSwitches`).
 * Chromium reads only the last `--disable-features`, so a list of ours must carry these too;
 * `tests/unit/chromium-switches.test.ts` fails when a Playwright upgrade changes its list.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * The address bar's suggestion popup as a web page of Chromium's own (chrome://omnibox-popup): every new
 * window, which is every page Playwright opens, preloads it in a renderer of its own. Nobody sees it in a
 * headless browser, and it cost more CPU than the page under test (about 0.45 s of a new page's 1 s).
 */
const BROWSER_UI_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"];

/** `--disable-features` with Playwright's list and ours, less `keep` (features to leave on). */
export function disabledFeaturesSwitch(keep = []) {
  const features = [...PLAYWRIGHT_DISABLED_FEATURES, ...BROWSER_UI_FEATURES].filter((f) => !keep.includes(f));
  return `--disable-features=${features.join(",")}`;
}

/**
 * Headless Chromium's switches here: no sandbox as root, no background calls a closed machine refuses, and
 * none of the browser's own UI pages (`BROWSER_UI_FEATURES`).
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  disabledFeaturesSwitch(),
];

/** The phone the benchmarks open pages on: a 390 × 844 touch screen at 2×, in English. */
export const PHONE_CONTEXT = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  locale: "en-US",
};

/** The benchmarks' phone network and CPU (Chrome DevTools Protocol's emulation): a 150 ms round trip, 1.6 Mbps down, 750 kbps up, 4× slower. */
export const PHONE_PROFILE = { latencyMs: 150, downBps: 1_600_000, upBps: 750_000, cpu: 4 };

/** Puts `page` on the phone profile; returns its DevTools session. */
export async function throttleToPhone(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: PHONE_PROFILE.latencyMs,
    downloadThroughput: PHONE_PROFILE.downBps / 8,
    uploadThroughput: PHONE_PROFILE.upBps / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: PHONE_PROFILE.cpu });
  return cdp;
}

export function findPostgresBin() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(`${root}/${v}/bin/initdb`))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? `${root}/${versions[0]}/bin` : null;
}

export function ensureSystemPackages({ needPostgres = true } = {}) {
  const missing = [];
  if (!existsSync(CHROMIUM_PATH)) missing.push("chromium");
  if (needPostgres && !findPostgresBin()) missing.push("postgresql");
  if (!existsSync(NGINX_PATH)) missing.push("nginx");
  // envsubst renders deploy/nginx.conf, as README's production section does (Debian's "standard" priority,
  // so usually there already).
  if (!existsSync("/usr/bin/envsubst")) missing.push("gettext-base");
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y ${missing.join(" ")}`;
  if (process.getuid?.() !== 0) {
    console.error(`\nThe tests need Debian packages that are missing: ${missing.join(", ")}.`);
    console.error(`Install them once, then run npm test again:\n\n  sudo sh -c '${command}'\n`);
    process.exit(1);
  }
  console.log(`[kassa] installing ${missing.join(", ")} from Debian's packages…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("sh", ["-c", `apt-get update -qq && apt-get install -y -qq ${missing.join(" ")}`], {
    stdio: "inherit",
    env,
  });
}
