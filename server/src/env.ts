/**
 * The server's configuration, read from environment variables and checked once at start.
 * Every variable, its default and its meaning is listed in server/README.md.
 */
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";

/**
 * The bot token used outside production when `TELEGRAM_BOT_TOKEN` is unset. It is public (it is in
 * this file and in the README): init data signed with it proves nothing, so production refuses it.
 */
/** `STATEMENT_TIMEOUT_MS` when unset: 15 s, far above any statement of the app at the sizes measured. */
const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;

export const DEV_BOT_TOKEN = "123456789:KASSA-DEVELOPMENT-TOKEN-not-for-production";

const TRUE_WORDS = ["true", "1", "yes", "on"];
const FALSE_WORDS = ["false", "0", "no", "off"];

const flag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => TRUE_WORDS.includes(v) || FALSE_WORDS.includes(v), {
    message: `expected one of ${[...TRUE_WORDS, ...FALSE_WORDS].join(", ")}`,
  })
  .transform((v) => TRUE_WORDS.includes(v));

/** A rate limit: at most `max` events per `windowSeconds` for one key; null switches the limit off. */
export interface RateLimitRule {
  max: number;
  windowSeconds: number;
}

/** `5/900` (5 per 900 s) or `off`. */
const rateLimit = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => v === "off" || /^[1-9]\d{0,6}\/[1-9]\d{0,7}$/.test(v), {
    message: "expected <max>/<window seconds>, e.g. 5/900, or off",
  })
  .transform((v): RateLimitRule | null => {
    if (v === "off") return null;
    const [max, windowSeconds] = v.split("/").map(Number);
    return { max: max ?? 0, windowSeconds: windowSeconds ?? 0 };
  });

/** The named ranges proxy-addr (Fastify's trustProxy) knows, as subnets. */
export const NAMED_PROXY_RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/** One entry of TRUST_PROXY: an address, an address/prefix, or a named range. */
function isProxyEntry(entry: string): boolean {
  if (entry in NAMED_PROXY_RANGES) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * The addresses of the proxies in front (a comma-separated list; CIDR and the names loopback,
 * linklocal, uniquelocal allowed): X-Forwarded-For and X-Forwarded-Proto are believed only on a
 * connection from one of them. `false`/`0` believe nobody. Refused: `true` (anyone could name any
 * address and step around every per-address limit) and a number of hops (the nearest hop is
 * believed whoever it is, so a client that reaches the instance directly could do the same).
 */
const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): false | string => {
    if (v === "0" || FALSE_WORDS.includes(v.toLowerCase())) return false;
    const entries = v
      .split(",")
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean);
    if (entries.length === 0 || !entries.every(isProxyEntry)) {
      ctx.addIssue({
        code: "custom",
        message:
          "must list the proxies' addresses (10.0.0.0/8,127.0.0.1; or loopback), never true or a number of hops: only a connection from a listed proxy may name the client's address",
      });
      return z.NEVER;
    }
    return entries.join(",");
  });

/** Bits of entropy a CODE_SECRET must show at least (an estimate from its own characters). */
const CODE_SECRET_MIN_BITS = 88;

/**
 * An estimate of a secret's entropy from its characters alone: the Shannon entropy of their
 * frequencies times the length, and nothing for a string that only repeats a shorter one. 32
 * random hex digits score about 110 bits (under 92 about once in 200,000 draws), 32 random base64
 * characters about 140; "a" × 32 and "password" × 4 score 0.
 */
export function estimatedEntropyBits(secret: string): number {
  const n = secret.length;
  if (n === 0 || /^(.+?)\1+$/s.test(secret)) return 0;
  const counts = new Map<string, number>();
  for (const char of secret) counts.set(char, (counts.get(char) ?? 0) + 1);
  let perChar = 0;
  for (const count of counts.values()) perChar -= (count / n) * Math.log2(count / n);
  return perChar * n;
}

/** Loopback addresses: the only ones a server with development routes may listen on. */
function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Unset and empty variables count as absent (a `.env` line `FOO=` means "use the default"). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema.optional());

const RawEnv = z.object({
  NODE_ENV: optional(z.enum(["development", "production", "test"])),
  HOST: optional(z.string().trim()),
  PORT: optional(z.coerce.number().int().min(0).max(65535)),
  DATABASE_URL: optional(
    z
      .string()
      .trim()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://"),
  ),
  DATA_DIR: optional(z.string().trim()),
  // Not `optional`: an empty value is meaningful (serve no app).
  STATIC_DIR: z.string().trim().optional(),
  UPLOAD_DIR: optional(z.string().trim()),
  TELEGRAM_BOT_TOKEN: optional(
    z
      .string()
      .trim()
      .regex(/^\d+:[\w-]{20,}$/, "is not a Telegram bot token"),
  ),
  TELEGRAM_AUTH_MAX_AGE_SECONDS: optional(z.coerce.number().int().positive()),
  TELEGRAM_BOT: optional(z.enum(["auto", "off"])),
  TELEGRAM_API_ROOT: optional(z.url({ protocol: /^https?$/ }).transform((v) => v.replace(/\/+$/, ""))),
  TELEGRAM_ENV: optional(z.enum(["prod", "test"])),
  TELEGRAM_WEBHOOK_SECRET: optional(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{16,256}$/, "must be 16-256 characters of A-Z a-z 0-9 _ -"),
  ),
  PUBLIC_URL: optional(z.url({ protocol: /^https?$/ }).transform((v) => v.replace(/\/+$/, ""))),
  MINI_APP_URL: optional(z.url({ protocol: /^https?$/ })),
  SEED_DEMO: optional(flag),
  LOG_LEVEL: optional(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])),
  OPERATOR_TOKEN: optional(z.string().trim().min(16, "must be at least 16 characters")),
  SMTP_URL: optional(z.url({ protocol: /^smtps?$/, error: "must be smtp://… or smtps://…" })),
  MAIL_FROM: optional(
    z
      .string()
      .trim()
      .regex(/^[^<>@\s]+@[^<>@\s]+$|<[^<>@\s]+@[^<>@\s]+>$/, "must be an address, e.g. Kassa <no-reply@example.com>"),
  ),
  SMS_API_URL: optional(z.url({ protocol: /^https?$/ }).transform((v) => v.replace(/\/+$/, ""))),
  SMS_ACCOUNT_SID: optional(
    z
      .string()
      .trim()
      .regex(/^\w{8,64}$/, "must be the account's SID"),
  ),
  SMS_AUTH_TOKEN: optional(z.string().trim().min(8, "must be at least 8 characters")),
  SMS_FROM: optional(
    z
      .string()
      .trim()
      .regex(
        /^\+[1-9]\d{6,14}$|^[A-Za-z0-9 ]{1,11}$/,
        "must be a number in E.164 (+…) or a sender name of up to 11 characters",
      ),
  ),
  SESSION_TTL_DAYS: optional(z.coerce.number().int().min(1).max(365)),
  CODE_SECRET: optional(
    z
      .string()
      .trim()
      .min(32, "must be at least 32 characters")
      .refine((v) => estimatedEntropyBits(v) >= CODE_SECRET_MIN_BITS, {
        message: `is not random enough (at least ${CODE_SECRET_MIN_BITS} bits by estimate; make one with: openssl rand -base64 32)`,
      }),
  ),
  ACCRUAL_INTERVAL_SECONDS: optional(z.coerce.number().int().min(0).max(86_400)),
  REQUEST_TIMEOUT_SECONDS: optional(z.coerce.number().int().min(1).max(3600)),
  STATEMENT_TIMEOUT_MS: optional(z.coerce.number().int().min(0).max(3_600_000)),
  KEEP_ALIVE_TIMEOUT_SECONDS: optional(z.coerce.number().int().min(1).max(600)),
  MAX_CONNECTIONS: optional(z.coerce.number().int().min(1).max(1_000_000)),
  MAX_CONNECTIONS_PER_ADDRESS: optional(z.coerce.number().int().min(1).max(1_000_000)),
  HEADERS_TIMEOUT_SECONDS: optional(z.coerce.number().int().min(1).max(600)),
  API_DOCS: optional(flag),
  TRUST_PROXY: optional(trustProxy),
  RATE_LIMIT_LOGIN_ACCOUNT: optional(rateLimit),
  RATE_LIMIT_LOGIN_IP: optional(rateLimit),
  RATE_LIMIT_REGISTER_IP: optional(rateLimit),
  RATE_LIMIT_CODE_REQUEST_ACCOUNT: optional(rateLimit),
  RATE_LIMIT_CODE_REQUEST_IP: optional(rateLimit),
  RATE_LIMIT_CODE_ENTRY_IP: optional(rateLimit),
  RATE_LIMIT_WITHDRAWAL_CODE_ACCOUNT: optional(rateLimit),
  RATE_LIMIT_WITHDRAWAL_CODE_IP: optional(rateLimit),
  RATE_LIMIT_UPLOAD_ACCOUNT: optional(rateLimit),
});

/** Every variable the server reads (server/README.md, "Environment", lists each). */
export const ENV_VARIABLES = Object.keys(RawEnv.shape);

/** The limits of sign-in and code calls (docs/api-sign-in.md, "Rate limits"). */
export interface RateLimits {
  /** Failed logins per IP address and login. */
  loginAccount: RateLimitRule | null;
  /** Failed logins per IP address, whatever the login. */
  loginIp: RateLimitRule | null;
  /** Registrations tried per IP address. */
  registerIp: RateLimitRule | null;
  /** Codes requested (phone resend, password reset) per account or typed login. */
  codeRequestAccount: RateLimitRule | null;
  /** Codes requested per IP address. */
  codeRequestIp: RateLimitRule | null;
  /** Codes entered (phone confirm, password reset validate) per IP address. */
  codeEntryIp: RateLimitRule | null;
  /** Wrong withdrawal codes per user, across all of the user's applications. */
  withdrawalCodeAccount: RateLimitRule | null;
  /** Wrong withdrawal codes per IP address, across users and applications. */
  withdrawalCodeIp: RateLimitRule | null;
  /** Image uploads (avatar, verification photos) per user. */
  uploadAccount: RateLimitRule | null;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  loginAccount: { max: 5, windowSeconds: 900 },
  loginIp: { max: 30, windowSeconds: 900 },
  registerIp: { max: 20, windowSeconds: 3600 },
  codeRequestAccount: { max: 5, windowSeconds: 3600 },
  codeRequestIp: { max: 10, windowSeconds: 900 },
  codeEntryIp: { max: 30, windowSeconds: 900 },
  withdrawalCodeAccount: { max: 10, windowSeconds: 3600 },
  withdrawalCodeIp: { max: 20, windowSeconds: 3600 },
  uploadAccount: { max: 20, windowSeconds: 3600 },
};

export type NodeEnv = "development" | "production" | "test";
type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export interface Env {
  NODE_ENV: NodeEnv;
  /** Interface to listen on; `127.0.0.1` by default, `0.0.0.0` to accept outside connections. */
  HOST: string;
  PORT: number;
  /** A PostgreSQL URL; when absent the embedded PGlite database in `DATA_DIR` is used. */
  DATABASE_URL: string | undefined;
  /** Absolute folder of the embedded database, or `memory` for a throw-away one. */
  DATA_DIR: string;
  /** Absolute folder of the built app (`vite build` output); null when set empty (API only). */
  STATIC_DIR: string | null;
  /**
   * Absolute folder of uploaded images (avatars, verification photos), outside any served folder:
   * `<DATA_DIR>-uploads` by default, `.data/uploads` when DATA_DIR is `memory` or PostgreSQL is used.
   */
  UPLOAD_DIR: string;
  TELEGRAM_BOT_TOKEN: string;
  TELEGRAM_AUTH_MAX_AGE_SECONDS: number;
  /**
   * Whether the chat bot runs in this process: with a real token (not the development one), or with
   * TELEGRAM_API_ROOT set (a local Bot API server, the tests' stand-in); never with TELEGRAM_BOT=off.
   */
  TELEGRAM_BOT_ENABLED: boolean;
  /** Bot API base URL (`https://api.telegram.org`, or a local Bot API server). */
  TELEGRAM_API_ROOT: string;
  /** Telegram's environment of the bot: `test` sends every Bot API call to `<root>/bot<token>/test/<method>`. */
  TELEGRAM_ENV: "prod" | "test";
  /** The `secret_token` of the webhook; derived from the bot token when unset (same in every process). */
  TELEGRAM_WEBHOOK_SECRET: string | undefined;
  /** Kassa's public HTTPS address: the bot then uses a webhook at `<PUBLIC_URL>/api/telegram/webhook`. */
  PUBLIC_URL: string | undefined;
  /** The Mini App's address for the bot's buttons: MINI_APP_URL, else PUBLIC_URL, else the local address. */
  MINI_APP_URL: string;
  SEED_DEMO: boolean;
  LOG_LEVEL: LogLevel;
  /** Secret of the operator endpoints (`/api/operator/*`); a random one per start when unset. */
  OPERATOR_TOKEN: string | undefined;
  /** The SMTP server e-mail (codes, account notices) goes through in production; none: no e-mail channel. */
  SMTP_URL: string | undefined;
  /** The e-mails' From (required with SMTP_URL). */
  MAIL_FROM: string | undefined;
  /** Base of the SMS provider's Messages API (Twilio's shape). */
  SMS_API_URL: string;
  /** The SMS provider account (with SMS_AUTH_TOKEN and SMS_FROM; all three or none). */
  SMS_ACCOUNT_SID: string | undefined;
  SMS_AUTH_TOKEN: string | undefined;
  /** The sender of SMS: a number in E.164 or an alphanumeric sender name. */
  SMS_FROM: string | undefined;
  /** How long a session (refreshToken) lives after sign-in. */
  SESSION_TTL_DAYS: number;
  /**
   * Key of the HMAC that verification codes are stored under. Required in production; elsewhere a
   * random one per process is used when unset (codes then do not survive a restart).
   */
  CODE_SECRET: string | undefined;
  /**
   * The proxies whose X-Forwarded-For (the client address the rate limits count by) and
   * X-Forwarded-Proto are believed: false (nobody) or a comma-separated list of addresses, CIDRs
   * and named ranges. Never `true`, never a number of hops.
   */
  TRUST_PROXY: false | string;
  /** Whether `/api/docs` (Swagger UI and the OpenAPI document) is served; off in production by default. */
  API_DOCS: boolean;
  /** Whole-request limit (headers and body), seconds; slower requests are cut off with 408. */
  REQUEST_TIMEOUT_SECONDS: number;
  /**
   * PostgreSQL: the longest one statement of a request may run, milliseconds (0: no limit). A
   * request's statements are also cancelled when its client goes away before the reply.
   */
  STATEMENT_TIMEOUT_MS: number;
  /** How long an idle keep-alive connection stays open, seconds. */
  KEEP_ALIVE_TIMEOUT_SECONDS: number;
  /** Open connections this process accepts at once; more are closed on arrival. */
  MAX_CONNECTIONS: number;
  /**
   * Open connections one client address may hold at once; more from it are closed on arrival.
   * Connections from a TRUST_PROXY address are not counted (the proxy must cap its clients).
   */
  MAX_CONNECTIONS_PER_ADDRESS: number;
  /** How long a request's headers may take to arrive, seconds (at most REQUEST_TIMEOUT_SECONDS). */
  HEADERS_TIMEOUT_SECONDS: number;
  RATE_LIMITS: RateLimits;
  /** How often the server runs the accruals (seconds); 0 switches the scheduler off. */
  ACCRUAL_INTERVAL_SECONDS: number;
}

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

export interface LoadEnvOptions {
  /** Base of relative DATA_DIR and STATIC_DIR; the working directory by default. */
  cwd?: string;
  /** The operator CLI needs no bot token, even in production. */
  forCli?: boolean;
}

/** Reads the configuration from `source` (the process environment by default). Throws `EnvError`. */
export function loadEnv(source: Record<string, string | undefined> = process.env, options: LoadEnvOptions = {}): Env {
  const cwd = options.cwd ?? process.cwd();
  const parsed = RawEnv.safeParse(source);
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`));
  }
  const raw = parsed.data;
  const nodeEnv = raw.NODE_ENV ?? "development";
  const production = nodeEnv === "production";

  const problems: string[] = [];
  if (production && !options.forCli && !raw.TELEGRAM_BOT_TOKEN)
    problems.push("TELEGRAM_BOT_TOKEN is required in production");
  if (production && !options.forCli && !raw.CODE_SECRET)
    problems.push("CODE_SECRET is required in production (at least 32 random characters)");
  else if (raw.DATABASE_URL && !options.forCli && !raw.CODE_SECRET)
    problems.push(
      "CODE_SECRET is required with DATABASE_URL (at least 32 random characters, the same for every instance): a code issued by one instance must be accepted by another",
    );
  const host = raw.HOST ?? "127.0.0.1";
  if (!production && !options.forCli && !isLoopbackHost(host))
    problems.push(
      `HOST=${host} outside production would expose the development routes (everyone's codes at /api/dev/outbox) and the demo account to the network: keep HOST at 127.0.0.1, or set NODE_ENV=production`,
    );
  if (production && raw.TELEGRAM_BOT_TOKEN === DEV_BOT_TOKEN) {
    problems.push("TELEGRAM_BOT_TOKEN is the public development token; production needs the bot's own token");
  }
  if (raw.SMTP_URL && !raw.MAIL_FROM) problems.push("MAIL_FROM is required with SMTP_URL (the e-mails' sender)");
  const sms = [raw.SMS_ACCOUNT_SID, raw.SMS_AUTH_TOKEN, raw.SMS_FROM];
  if (sms.some((v) => v !== undefined) && sms.some((v) => v === undefined))
    problems.push("SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM go together: set all three or none");
  const dataDir = raw.DATA_DIR ?? ".data/pglite";
  const staticDir = raw.STATIC_DIR === "" ? null : path.resolve(cwd, raw.STATIC_DIR ?? "dist");
  const uploadDir = path.resolve(
    cwd,
    raw.UPLOAD_DIR ?? (dataDir === "memory" || raw.DATABASE_URL ? ".data/uploads" : `${dataDir}-uploads`),
  );
  if (staticDir && (uploadDir === staticDir || uploadDir.startsWith(`${staticDir}${path.sep}`))) {
    problems.push("UPLOAD_DIR must not lie inside STATIC_DIR (uploads are never served as static files)");
  }
  if (problems.length > 0) throw new EnvError(problems);

  return {
    NODE_ENV: nodeEnv,
    HOST: host,
    PORT: raw.PORT ?? 8787,
    DATABASE_URL: raw.DATABASE_URL,
    DATA_DIR: dataDir === "memory" ? "memory" : path.resolve(cwd, dataDir),
    STATIC_DIR: staticDir,
    UPLOAD_DIR: uploadDir,
    TELEGRAM_BOT_TOKEN: raw.TELEGRAM_BOT_TOKEN ?? DEV_BOT_TOKEN,
    TELEGRAM_AUTH_MAX_AGE_SECONDS: raw.TELEGRAM_AUTH_MAX_AGE_SECONDS ?? 3600,
    TELEGRAM_BOT_ENABLED:
      raw.TELEGRAM_BOT !== "off" &&
      ((raw.TELEGRAM_BOT_TOKEN !== undefined && raw.TELEGRAM_BOT_TOKEN !== DEV_BOT_TOKEN) ||
        raw.TELEGRAM_API_ROOT !== undefined),
    TELEGRAM_API_ROOT: raw.TELEGRAM_API_ROOT ?? "https://api.telegram.org",
    TELEGRAM_ENV: raw.TELEGRAM_ENV ?? "prod",
    TELEGRAM_WEBHOOK_SECRET: raw.TELEGRAM_WEBHOOK_SECRET,
    PUBLIC_URL: raw.PUBLIC_URL,
    MINI_APP_URL: raw.MINI_APP_URL ?? (raw.PUBLIC_URL ? `${raw.PUBLIC_URL}/` : `http://localhost:${raw.PORT ?? 8787}/`),
    SEED_DEMO: raw.SEED_DEMO ?? !production,
    LOG_LEVEL: raw.LOG_LEVEL ?? (nodeEnv === "test" ? "warn" : "info"),
    OPERATOR_TOKEN: raw.OPERATOR_TOKEN,
    SMTP_URL: raw.SMTP_URL,
    MAIL_FROM: raw.MAIL_FROM,
    SMS_API_URL: raw.SMS_API_URL ?? "https://api.twilio.com",
    SMS_ACCOUNT_SID: raw.SMS_ACCOUNT_SID,
    SMS_AUTH_TOKEN: raw.SMS_AUTH_TOKEN,
    SMS_FROM: raw.SMS_FROM,
    SESSION_TTL_DAYS: raw.SESSION_TTL_DAYS ?? 30,
    CODE_SECRET: raw.CODE_SECRET,
    TRUST_PROXY: raw.TRUST_PROXY ?? false,
    API_DOCS: raw.API_DOCS ?? !production,
    ACCRUAL_INTERVAL_SECONDS: raw.ACCRUAL_INTERVAL_SECONDS ?? 60,
    REQUEST_TIMEOUT_SECONDS: raw.REQUEST_TIMEOUT_SECONDS ?? 60,
    STATEMENT_TIMEOUT_MS: raw.STATEMENT_TIMEOUT_MS ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    KEEP_ALIVE_TIMEOUT_SECONDS: raw.KEEP_ALIVE_TIMEOUT_SECONDS ?? 5,
    MAX_CONNECTIONS: raw.MAX_CONNECTIONS ?? 1000,
    MAX_CONNECTIONS_PER_ADDRESS: raw.MAX_CONNECTIONS_PER_ADDRESS ?? 64,
    HEADERS_TIMEOUT_SECONDS: Math.min(raw.HEADERS_TIMEOUT_SECONDS ?? 10, raw.REQUEST_TIMEOUT_SECONDS ?? 60),
    RATE_LIMITS: {
      loginAccount: pick(raw.RATE_LIMIT_LOGIN_ACCOUNT, DEFAULT_RATE_LIMITS.loginAccount),
      loginIp: pick(raw.RATE_LIMIT_LOGIN_IP, DEFAULT_RATE_LIMITS.loginIp),
      registerIp: pick(raw.RATE_LIMIT_REGISTER_IP, DEFAULT_RATE_LIMITS.registerIp),
      codeRequestAccount: pick(raw.RATE_LIMIT_CODE_REQUEST_ACCOUNT, DEFAULT_RATE_LIMITS.codeRequestAccount),
      codeRequestIp: pick(raw.RATE_LIMIT_CODE_REQUEST_IP, DEFAULT_RATE_LIMITS.codeRequestIp),
      codeEntryIp: pick(raw.RATE_LIMIT_CODE_ENTRY_IP, DEFAULT_RATE_LIMITS.codeEntryIp),
      withdrawalCodeAccount: pick(raw.RATE_LIMIT_WITHDRAWAL_CODE_ACCOUNT, DEFAULT_RATE_LIMITS.withdrawalCodeAccount),
      withdrawalCodeIp: pick(raw.RATE_LIMIT_WITHDRAWAL_CODE_IP, DEFAULT_RATE_LIMITS.withdrawalCodeIp),
      uploadAccount: pick(raw.RATE_LIMIT_UPLOAD_ACCOUNT, DEFAULT_RATE_LIMITS.uploadAccount),
    },
  };
}

/** A limit given in the environment (`off` is null), else the default. */
function pick(given: RateLimitRule | null | undefined, fallback: RateLimitRule | null): RateLimitRule | null {
  return given === undefined ? fallback : given;
}
