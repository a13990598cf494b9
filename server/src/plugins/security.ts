/**
 * Security headers and compression. The Mini App is shown inside Telegram's web clients in an
 * iframe, so framing is allowed for Telegram's origins (CSP frame-ancestors; no X-Frame-Options,
 * which cannot express that). telegram-ui sets inline styles, hence 'unsafe-inline' for styles
 * only; scripts come from this origin alone. Strict-Transport-Security goes out in production and
 * only on a request that came over https (its own TLS, or X-Forwarded-Proto from a proxy listed in
 * TRUST_PROXY): a browser ignores it over plain http, and sending it there says nothing true.
 */
import compress from "@fastify/compress";
import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import type { Env } from "../env";

/** The HSTS header helmet would send by default: a year, subdomains included. */
export const HSTS_HEADER = "max-age=31536000; includeSubDomains";

export const TELEGRAM_FRAME_ANCESTORS = ["https://web.telegram.org", "https://*.telegram.org"];

export function contentSecurityPolicy(env: Env) {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      scriptSrc: ["'self'"],
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
