/**
 * Security headers and compression. The Mini App is shown inside Telegram's web clients in an
 * iframe, so framing is allowed for Telegram's origins (CSP frame-ancestors; no X-Frame-Options,
 * which cannot express that). telegram-ui sets inline styles, hence 'unsafe-inline' for styles
 * only; scripts come from this origin alone, and the built index.html's own inline scripts (the launcher the
 * build writes into it, `vite.config.ts`) by their SHA-256 hashes, read from the file (again whenever it
 * changes, so a new build is allowed without a restart): any other inline script is refused. Strict-Transport-Security goes out in production and
 * only on a request that came over https (its own TLS, or X-Forwarded-Proto from a proxy listed in
 * TRUST_PROXY): a browser ignores it over plain http, and sending it there says nothing true.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import compress from "@fastify/compress";
import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import type { Env } from "../env";

/** The HSTS header helmet would send by default: a year, subdomains included. */
export const HSTS_HEADER = "max-age=31536000; includeSubDomains";

export const TELEGRAM_FRAME_ANCESTORS = ["https://web.telegram.org", "https://*.telegram.org"];

/**
 * `'sha256-…'` for each inline script of the built app's index.html in `dir` (none without a built app): the
 * hash of its text as it stands between the tags, which is what the browser hashes.
 */
export function inlineScriptHashes(dir: string | null): string[] {
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

/**
 * The `script-src` sources of the built app's inline scripts, as of its index.html now: the file's hashes are
 * read again only when its modification time or size has changed (a stat per response).
 */
export function inlineScriptSources(dir: string): () => string {
  let seen = "";
  let sources = "";
  return () => {
    let stamp = "";
    try {
      const stat = fs.statSync(path.join(dir, "index.html"));
      stamp = `${stat.mtimeMs}:${stat.size}`;
    } catch {
      // No built app (yet): no inline script to allow.
    }
    if (stamp !== seen) {
      seen = stamp;
      sources = inlineScriptHashes(stamp ? dir : null).join(" ");
    }
    return sources;
  };
}

export function contentSecurityPolicy(env: Env) {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      scriptSrc: ["'self'", ...(env.STATIC_DIR === null ? [] : [inlineScriptSources(env.STATIC_DIR)])],
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

export async function registerSecurity(app: FastifyInstance, env: Env): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(env),
    frameguard: false,
    crossOriginEmbedderPolicy: false,
    // Same-origin-allow-popups keeps Telegram's and wallets' popups working.
    crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
    hsts: false,
  });
  if (env.NODE_ENV === "production") {
    app.addHook("onSend", async (request, reply) => {
      if (request.protocol === "https") reply.header("strict-transport-security", HSTS_HEADER);
    });
  }
  await app.register(compress, { global: true, threshold: 1024 });
}
