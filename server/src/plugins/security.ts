/**
 * Security headers and compression. The Mini App is shown inside Telegram's web clients in an
 * iframe, so framing is allowed for Telegram's origins (CSP frame-ancestors; no X-Frame-Options,
 * which cannot express that). telegram-ui sets inline styles, hence 'unsafe-inline' for styles
 * only; scripts come from this origin alone, and the built index.html's own inline scripts (the launcher the
 * build writes into it, `build/launch-preload.ts`) by their SHA-256 hashes: any other inline script is refused.
 * Strict-Transport-Security goes out in production and only on a request that came over https (its own TLS,
 * or X-Forwarded-Proto from a proxy listed in TRUST_PROXY): a browser ignores it over plain http, and sending
 * it there says nothing true.
 *
 * The headers are helmet's, computed once (docs/architecture.md#security-headers): helmet's middleware runs
 * against a recording response at start, and again when the built index.html changes (a watch on the
 * folder, so a new build is allowed without a restart) — never per reply. The page's headers (the CSP, the
 * cross-origin opener and agent-cluster rules, the legacy browser switches) go with HTML only; a JSON, image
 * or script reply carries the few that mean something for it (nosniff, the resource and referrer policies).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";
import type { Env } from "../env";
import { isApiPath } from "./static-app";

/** The HSTS header helmet would send by default: a year, subdomains included. */
const HSTS_HEADER = "max-age=31536000; includeSubDomains";

const TELEGRAM_FRAME_ANCESTORS = ["https://web.telegram.org", "https://*.telegram.org"];

/** The headers every reply carries; the rest of helmet's are the page's. */
const EVERY_REPLY = new Set(["x-content-type-options", "cross-origin-resource-policy", "referrer-policy"]);

/**
 * `'sha256-…'` for each inline script of the built app's index.html in `dir` (none without a built app): the
 * hash of its text as it stands between the tags, which is what the browser hashes.
 */
function inlineScriptHashes(dir: string | null): string[] {
  if (dir === null) return [];
  let html: string;
  try {
    html = fs.readFileSync(path.join(dir, "index.html"), "utf8");
  } catch {
    return [];
  }
  const hashes: string[] = [];
  for (const [, attributes = "", text = ""] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(attributes) || text === "") continue;
    hashes.push(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  }
  return hashes;
}

function contentSecurityPolicy(env: Env, inlineScripts: string[]) {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      scriptSrc: ["'self'", ...inlineScripts],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      // Telegram profile photos come from t.me.
      imgSrc: ["'self'", "data:", "blob:", "https://t.me"],
      fontSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'self'", ...TELEGRAM_FRAME_ANCESTORS],
      // On plain http (local runs) upgrading would break every request.
      ...(env.NODE_ENV === "production" ? { upgradeInsecureRequests: [] } : {}),
    },
  };
}

/** What helmet's middleware sets on a response with these options, as a plain object (its names in lower case). */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
    getHeader(name: string) {
      return headers[name.toLowerCase()];
    },
  };
  let failed: unknown = null;
  helmet(options)({} as never, recorder as never, (error?: unknown) => {
    failed = error ?? null;
  });
  if (failed) throw failed;
  return headers;
}

/** The headers of an HTML reply and of any other, as the built app in `staticDir` stands now. */
function securityHeaders(
  env: Env,
  staticDir: string | null,
): { page: Record<string, string>; other: Record<string, string> } {
  const all = helmetHeaders({
    contentSecurityPolicy: contentSecurityPolicy(env, inlineScriptHashes(staticDir)),
    frameguard: false,
    crossOriginEmbedderPolicy: false,
    // Same-origin-allow-popups keeps Telegram's and wallets' popups working.
    crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
    hsts: false,
  });
  const other = Object.fromEntries(Object.entries(all).filter(([name]) => EVERY_REPLY.has(name)));
  return { page: all, other };
}

export async function registerSecurity(app: FastifyInstance, env: Env): Promise<void> {
  const dir = env.STATIC_DIR;
  let headers = securityHeaders(env, dir);
  if (dir !== null) {
    // A new build rewrites index.html: its inline scripts' hashes are read again then (and only then).
    try {
      const watcher = fs.watch(dir, { persistent: false }, (_event, file) => {
        if (file === null || file === "index.html") headers = securityHeaders(env, dir);
      });
      watcher.on("error", () => {});
      app.addHook("onClose", async () => watcher.close());
    } catch {
      // No folder to watch (no built app): nothing inline to allow.
    }
  }
  const production = env.NODE_ENV === "production";
  app.addHook("onSend", (request, reply, payload, done) => {
    const type = reply.getHeader("content-type");
    reply.headers(typeof type === "string" && type.startsWith("text/html") ? headers.page : headers.other);
    if (production && request.protocol === "https") reply.header("strict-transport-security", HSTS_HEADER);
    done(null, payload);
  });
  // The built app's files (every route outside /api) are not compressed per request: the build wrote a Brotli and a
  // gzip copy of each one they make smaller, sent as they are (build/precompress.ts, `preCompressed` in
  // static-app.ts). @fastify/compress would compress a file without a copy at every request whatever its size (its
  // threshold applies to replies of a known length, a file is a stream): ~0.3 ms of CPU a request for a chunk under
  // 1 KB, the smallest sent larger than they are. Added before the plugin's own hook, which reads the option as each
  // route is added.
  app.addHook("onRoute", (route) => {
    if (!isApiPath(route.url)) route.compress = false;
  });
  await app.register(compress, { global: true, threshold: 1024 });
}
