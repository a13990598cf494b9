/**
 * Security headers and compression. The Mini App is shown inside Telegram's web clients in an
 * iframe, so framing is allowed for Telegram's origins (CSP frame-ancestors; no X-Frame-Options,
 * which cannot express that). telegram-ui sets inline styles, hence 'unsafe-inline' for styles
 * only; scripts come from this origin alone.
 */
import compress from "@fastify/compress";
import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import type { Env } from "../env";

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
    hsts: env.NODE_ENV === "production",
  });
  await app.register(compress, { global: true, threshold: 1024 });
}
