/**
 * The server's socket, listening from the first moments of a start (main.ts): while the database
 * opens and the app's code loads and builds, liveness (`GET /api/health`) already answers
 * `{ ok: true }` — as its route does, it says the process answers and touches nothing else — and
 * every other request waits, in order, until the app takes the socket over (Fastify's
 * `serverFactory`, `handOver`). Readiness (`GET /api/health/ready`) waiting longer than its timeout
 * gets the route's 503 `{ ok: false, database: "down" }`: the database has not answered yet.
 *
 * Kept light on purpose (Node's own modules and the connection cap only): it is loaded before the
 * server's packages, so a start answers liveness in a fraction of the time it takes to be ready.
 */
import { randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Env } from "./env";
import { capConnectionsPerAddress, proxyMatcher } from "./security/connection-cap";

/** How long readiness waits for the database (here while starting, then routes/health.ts). */
export const READY_TIMEOUT_MS = 3000;

/** The health routes' paths (the API's prefix is /api, app.ts). */
const LIVENESS = "/api/health";
const READINESS = "/api/health/ready";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** The connection timeouts, the same for a server Fastify creates (app.ts) and this one. */
export function httpTimeouts(env: Env) {
  return {
    // A request (headers and body) must arrive within REQUEST_TIMEOUT_SECONDS, however slowly its
    // bytes trickle in; its headers within HEADERS_TIMEOUT_SECONDS; an idle keep-alive connection
    // closes after KEEP_ALIVE_TIMEOUT_SECONDS.
    requestTimeout: env.REQUEST_TIMEOUT_SECONDS * 1000,
    headersTimeout: env.HEADERS_TIMEOUT_SECONDS * 1000,
    keepAliveTimeout: env.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    // A connection silent this long is closed, whatever state it is in.
    connectionTimeout: Math.max(env.REQUEST_TIMEOUT_SECONDS, env.KEEP_ALIVE_TIMEOUT_SECONDS) * 1000,
    // Node checks the timeouts above at this interval (30 s by default): a slow header is cut
    // within a second of its time.
    connectionsCheckingInterval: Math.min(env.HEADERS_TIMEOUT_SECONDS * 500, 1000),
  };
}

/**
 * No more than MAX_CONNECTIONS connections are held; one client (an IPv4 address, an IPv6 /64) may hold no
 * more than MAX_CONNECTIONS_PER_ADDRESS of them, and once all are held a new client's connection makes the
 * heaviest client give up its oldest one not being answered, so a few hosts cannot take every slot. A request
 * body that brings nothing for HEADERS_TIMEOUT_SECONDS is cut like slow headers (docs/security.md,
 * "Connection fairness").
 */
export function capConnections(server: http.Server, env: Env): void {
  // One past the total: Node closes a connection beyond `maxConnections` before anyone sees it, so the
  // newcomer that makes the heaviest client give way is looked at in this last slot (the cap keeps the total).
  server.maxConnections = env.MAX_CONNECTIONS + 1;
  capConnectionsPerAddress(
    server,
    env.MAX_CONNECTIONS_PER_ADDRESS,
    proxyMatcher(env.TRUST_PROXY),
    env.MAX_CONNECTIONS,
    env.HEADERS_TIMEOUT_SECONDS * 1000,
  );
}

function pathOf(url: string | undefined): string {
  const path = (url ?? "").split("?")[0] ?? "";
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

function sendJson(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "x-request-id": randomUUID(),
  });
  response.end(body);
}

export interface EarlyServer {
  server: http.Server;
  /** For `buildApp`: Fastify serves on this server, not one of its own. */
  serverFactory: (handler: Handler) => http.Server;
  /** Listens (before anything else is ready); rejects as `server.listen` fails (EADDRINUSE). */
  listen(host: string, port: number): Promise<void>;
  /** The app is ready: the waiting requests and every later one go to it. */
  handOver(): void;
  /** Stops taking connections, closes the idle ones; resolves when the last one has closed. */
  close(): Promise<void>;
}

export function createEarlyServer(env: Env): EarlyServer {
  const timeouts = httpTimeouts(env);
  let appHandler: Handler | null = null;
  let ready = false;
  const waiting: { request: IncomingMessage; response: ServerResponse; timer?: NodeJS.Timeout }[] = [];

  const early: Handler = (request, response) => {
    const path = pathOf(request.url);
    if (path === LIVENESS && (request.method === "GET" || request.method === "HEAD")) {
      sendJson(response, 200, request.method === "HEAD" ? "" : JSON.stringify({ ok: true }));
      return;
    }
    const entry: (typeof waiting)[number] = { request, response };
    if (path === READINESS && request.method === "GET") {
      entry.timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(entry), 1);
        sendJson(response, 503, JSON.stringify({ ok: false, database: "down" }));
      }, READY_TIMEOUT_MS);
    }
    waiting.push(entry);
  };

  const server = http.createServer(
    { headersTimeout: timeouts.headersTimeout, connectionsCheckingInterval: timeouts.connectionsCheckingInterval },
    (request, response) => (ready && appHandler ? appHandler(request, response) : early(request, response)),
  );
  server.requestTimeout = timeouts.requestTimeout;
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  server.setTimeout(timeouts.connectionTimeout);
  capConnections(server, env);

  return {
    server,
    serverFactory: (handler) => {
      appHandler = handler;
      return server;
    },
    listen: (host, port) =>
      new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen({ host, port }, () => {
          server.off("error", reject);
          resolve();
        });
      }),
    handOver: () => {
      if (!appHandler) throw new Error("the app was not built on the early server");
      ready = true;
      for (const { request, response, timer } of waiting.splice(0)) {
        clearTimeout(timer);
        if (!response.destroyed) appHandler(request, response);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
