/**
 * Connection fairness (docs/security.md, "Connection fairness"), over real sockets: six client addresses, each
 * holding its share of connections (slow headers, slow bodies, idle keep-alives, reopened as they are closed),
 * fill MAX_CONNECTIONS, and a fresh address is answered every time (the heaviest clients give up their oldest
 * connection not being answered); a request body that stops arriving is cut after the headers' timeout, not the
 * request's; IPv6 clients count by their /64. On a bare server with the cap: the connection that makes way is the
 * heaviest client's oldest one not being answered, and an answer slower than the stalled-body timeout is not cut.
 * Linux routes all of 127.0.0.0/8 to loopback, so 127.0.0.x are distinct client addresses.
 */
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capConnectionsPerAddress, clientGroup } from "../../server/src/security/connection-cap";
import { createTestServer, listenCountingConnections, type TestServer, until } from "./helpers";

const TOTAL = 40;
const PER_ADDRESS = 8;
/** Six clients wanting 8 connections each: more than the 40 slots (as 16 × 64 are more than 1,000). */
const FILLERS = [
  { address: "127.0.0.2", kind: "slow headers" },
  { address: "127.0.0.3", kind: "slow headers" },
  { address: "127.0.0.4", kind: "slow body" },
  { address: "127.0.0.5", kind: "slow body" },
  { address: "127.0.0.6", kind: "idle keep-alive" },
  { address: "127.0.0.7", kind: "idle keep-alive" },
] as const;
type Kind = (typeof FILLERS)[number]["kind"];

let server: TestServer;
let port: number;
/** Connections the server keeps, by client address (the cap destroys the others before this listener hears them). */
const held = new Map<string, number>();
const heldNow = () => [...held.values()].reduce((sum, n) => sum + n, 0);

beforeAll(async () => {
  server = await createTestServer({
    seed: false,
    env: {
      MAX_CONNECTIONS: String(TOTAL),
      MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
      HEADERS_TIMEOUT_SECONDS: "2",
      REQUEST_TIMEOUT_SECONDS: "120",
      KEEP_ALIVE_TIMEOUT_SECONDS: "120",
    },
  });
  port = await listenCountingConnections(server, held);
});

afterAll(async () => {
  await server.close();
});

/**
 * One connection of a filler: slow headers (a header byte every 300 ms: Node cuts them after the headers'
 * timeout), a slow body (a body byte every 500 ms: never stalled, only the request's 120 s would cut it), or an
 * idle keep-alive (one answered request, then silence). `onClose` hears when it ends, whoever ended it.
 */
function fillerConnection(localAddress: string, kind: Kind, onClose: () => void): net.Socket {
  const socket = net.connect({ port, host: "127.0.0.1", localAddress });
  let timer: NodeJS.Timeout | undefined;
  socket.on("error", () => {});
  socket.on("data", () => {});
  socket.on("connect", () => {
    if (kind === "idle keep-alive") {
      socket.write("GET /api/health HTTP/1.1\r\nHost: kassa\r\nConnection: keep-alive\r\n\r\n");
      return;
    }
    if (kind === "slow headers") socket.write("GET /api/health HTTP/1.1\r\nHost: kassa\r\nX-Slow: ");
    else
      socket.write(
        "POST /api/auth/login HTTP/1.1\r\nHost: kassa\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
      );
    timer = setInterval(() => socket.write(kind === "slow headers" ? "a" : " "), kind === "slow headers" ? 300 : 500);
  });
  socket.once("close", () => {
    clearInterval(timer);
    onClose();
  });
  return socket;
}

/** A filler: keeps PER_ADDRESS connections of its kind open, reopening each one 100 ms after it ends. */
function startFiller(address: string, kind: Kind) {
  const sockets = new Set<net.Socket>();
  let running = true;
  const open = () => {
    if (!running) return;
    const socket = fillerConnection(address, kind, () => {
      sockets.delete(socket);
      if (running) setTimeout(open, 100);
    });
    sockets.add(socket);
  };
  for (let i = 0; i < PER_ADDRESS; i++) open();
  return () => {
    running = false;
    for (const socket of sockets) socket.destroy();
  };
}

function health(localAddress: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get({ host: "127.0.0.1", port, path: "/api/health", localAddress, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    request.on("error", () => resolve(0));
    // A generous ceiling for a loaded machine.
    request.setTimeout(30_000, () => request.destroy());
  });
}

describe("connection fairness", () => {
  it("serves a new address every time while the heaviest addresses fill every slot", async () => {
    const stops = FILLERS.map(({ address, kind }) => startFiller(address, kind));
    const statuses: number[] = [];
    const fullBefore: boolean[] = [];
    let heldMost = 0;
    try {
      // The fillers hold every slot.
      await until("every slot held", () => heldNow() >= TOTAL, 30_000);
      for (let n = 0; n < 12; n++) {
        // Full again (a slow-header connection cut and not yet reopened leaves a slot free for a moment).
        fullBefore.push(
          await until("every slot held", () => heldNow() >= TOTAL, 10_000).then(
            () => true,
            () => false,
          ),
        );
        for (const { address } of FILLERS) heldMost = Math.max(heldMost, held.get(address) ?? 0);
        statuses.push(await health(`127.0.0.${50 + n}`));
      }
    } finally {
      for (const stop of stops) stop();
    }
    console.log(
      `[kassa] ${FILLERS.length} addresses × ${PER_ADDRESS} slow or idle connections against ${TOTAL} slots: ` +
        `full before ${fullBefore.filter(Boolean).length} of ${fullBefore.length} health checks from fresh addresses, ` +
        `statuses ${statuses.join(", ")}; at most ${heldMost} held by one filler`,
    );
    // Every slot was taken before most of the checks ...
    expect(fullBefore.filter(Boolean).length).toBeGreaterThanOrEqual(fullBefore.length / 2);
    // ... and every fresh address was answered.
    expect(statuses).toEqual(statuses.map(() => 200));
    expect(heldMost).toBeLessThanOrEqual(PER_ADDRESS);
    // Let the fillers' sockets go before the next test.
    await until("the fillers' sockets gone", () => heldNow() === 0, 30_000);
  }, 120_000);

  it("cuts a request body that stops arriving after the headers' timeout", async () => {
    // The request reached the server (it was not refused at the door) ...
    let arrived = false;
    server.app.server.on("request", (request: http.IncomingMessage) => {
      if (request.socket.remoteAddress === "127.0.0.40") arrived = true;
    });
    const closed = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host: "127.0.0.1", localAddress: "127.0.0.40" });
      socket.on("error", () => {});
      socket.on("connect", () =>
        socket.write(
          "POST /api/auth/login HTTP/1.1\r\nHost: kassa\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{",
        ),
      );
      socket.once("close", () => resolve(true));
      // A generous ceiling, far below the request's 120 s.
      setTimeout(() => {
        socket.destroy();
        resolve(false);
      }, 40_000).unref();
    });
    // ... and its stalled body was cut long before the request's own timeout.
    expect(arrived).toBe(true);
    expect(closed).toBe(true);
  }, 60_000);

  it("counts an IPv6 client by its /64 and an IPv4 one by its address", () => {
    expect(clientGroup("2001:db8:1:2:aaaa::1")).toBe(clientGroup("2001:db8:1:2:ffff:ffff:ffff:ffff"));
    expect(clientGroup("2001:0db8:0001:0002:0000:0000:0000:0001")).toBe(clientGroup("2001:db8:1:2::1"));
    expect(clientGroup("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(clientGroup("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientGroup("2001:DB8:1:2::1")).toBe(clientGroup("2001:db8:1:2::2"));
    expect(clientGroup("2001:db8:1:2::1")).not.toBe(clientGroup("2001:db8:1:3::1"));
    expect(clientGroup("::1")).toBe("0:0:0:0::/64");
    expect(clientGroup("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(clientGroup("192.0.2.1")).not.toBe(clientGroup("192.0.2.2"));
  });
});

describe("which connection makes way", () => {
  /** A bare server with the cap (4 slots, 3 a client, a body stalled 500 ms cut) whose answers wait for `release`. */
  async function bareServer() {
    const waiting: http.ServerResponse[] = [];
    // As Fastify does for a GET: the request's stream is never read (its 'end' comes only after the answer).
    const bare = http.createServer((request, response) => {
      if (request.url === "/slow") waiting.push(response);
      else response.end("ok");
    });
    bare.maxConnections = 5;
    capConnectionsPerAddress(bare, 3, () => false, 4, 500);
    await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
    const barePort = (bare.address() as net.AddressInfo).port;
    const connect = (localAddress: string, request: string) =>
      new Promise<{ socket: net.Socket; closed: () => boolean; reply: () => string }>((resolve) => {
        const socket = net.connect({ port: barePort, host: "127.0.0.1", localAddress });
        let closed = false;
        let reply = "";
        socket.on("error", () => {});
        socket.on("data", (data) => {
          reply += data.toString("latin1");
        });
        socket.once("close", () => {
          closed = true;
        });
        socket.once("connect", () => {
          socket.write(request);
          resolve({ socket, closed: () => closed, reply: () => reply });
        });
      });
    return { bare, waiting, connect };
  }

  it("cuts the heaviest client's oldest connection not being answered, never one being answered before it", async () => {
    const { bare, waiting, connect } = await bareServer();
    try {
      // 127.0.0.60: one request being answered (opened first), then two idle keep-alives.
      const answering = await connect("127.0.0.60", "GET /slow HTTP/1.1\r\nHost: kassa\r\n\r\n");
      await until("the request waiting", () => waiting.length === 1, 30_000);
      const idle1 = await connect("127.0.0.60", "GET / HTTP/1.1\r\nHost: kassa\r\n\r\n");
      const idle2 = await connect("127.0.0.60", "GET / HTTP/1.1\r\nHost: kassa\r\n\r\n");
      await until("the idle ones answered", () => idle1.reply() !== "" && idle2.reply() !== "", 30_000);
      // 127.0.0.61 takes the last slot; 127.0.0.62 finds all four held.
      const other = await connect("127.0.0.61", "GET / HTTP/1.1\r\nHost: kassa\r\n\r\n");
      await until("the other answered", () => other.reply() !== "", 30_000);
      const newcomer = await connect("127.0.0.62", "GET / HTTP/1.1\r\nHost: kassa\r\n\r\n");
      await until("the newcomer served", () => newcomer.reply().startsWith("HTTP/1.1 200"), 30_000);
      await until("the idle one closed", () => idle1.closed(), 30_000);
      // The answer in progress and the younger idle connection stay; the answer still goes out.
      expect([answering.closed(), idle2.closed(), other.closed()]).toEqual([false, false, false]);
      waiting[0]?.end("late");
      await until("the late answer", () => answering.reply().includes("late"), 30_000);
      for (const c of [answering, idle2, other, newcomer]) c.socket.destroy();
    } finally {
      bare.closeAllConnections();
      bare.close();
    }
  });

  it("lets an answer take longer than the stalled-body timeout", async () => {
    const { bare, waiting, connect } = await bareServer();
    try {
      const slow = await connect("127.0.0.63", "GET /slow HTTP/1.1\r\nHost: kassa\r\n\r\n");
      await until("the request waiting", () => waiting.length === 1, 30_000);
      // Three times the 500 ms a stalled body gets: the request came whole, so the wait is the server's.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(slow.closed()).toBe(false);
      waiting[0]?.end("late");
      await until("the late answer", () => slow.reply().includes("late"), 30_000);
      slow.socket.destroy();
    } finally {
      bare.closeAllConnections();
      bare.close();
    }
  });
});
