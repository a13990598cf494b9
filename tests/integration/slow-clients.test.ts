/**
 * One host cannot starve the rest: over real sockets, one address keeps opening connections and
 * sending its headers a byte at a time (reopening each one as it is cut) while another address
 * asks for the health check. The attacker holds at most MAX_CONNECTIONS_PER_ADDRESS connections,
 * its slow headers are cut after HEADERS_TIMEOUT_SECONDS, and every health check is answered.
 * Linux routes all of 127.0.0.0/8 to loopback, so 127.0.0.2 is a second client address.
 */
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, listenCountingConnections, type TestServer } from "./helpers";

const ATTACKER = "127.0.0.1";
const NEIGHBOUR = "127.0.0.2";
const PER_ADDRESS = 10;

let server: TestServer;
let port: number;
const held = new Map<string, number>();

beforeAll(async () => {
  server = await createTestServer({
    seed: false,
    env: {
      MAX_CONNECTIONS: "40",
      MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
      HEADERS_TIMEOUT_SECONDS: "2",
      REQUEST_TIMEOUT_SECONDS: "60",
    },
  });
  port = await listenCountingConnections(server, held);
});

afterAll(async () => {
  await server.close();
});

/**
 * A connection from `localAddress` that sends a request line and then one header byte every 300 ms;
 * `onClose` hears how long it lasted and whether the server answered 408 (its headers were too slow).
 */
function slowHeaders(localAddress: string, onClose: (ms: number, timedOut: boolean) => void): net.Socket {
  const started = Date.now();
  let timedOut = false;
  const socket = net.connect({ port, host: "127.0.0.1", localAddress });
  let timer: NodeJS.Timeout | undefined;
  socket.on("data", (data) => {
    if (data.toString("latin1").startsWith("HTTP/1.1 408")) timedOut = true;
  });
  socket.on("connect", () => {
    socket.write("GET /api/health HTTP/1.1\r\nHost: kassa\r\nX-Slow: ");
    timer = setInterval(() => {
      if (!socket.destroyed) socket.write("a");
    }, 300);
  });
  socket.on("error", () => {});
  socket.on("close", () => {
    clearInterval(timer);
    onClose(Date.now() - started, timedOut);
  });
  return socket;
}

function health(localAddress: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get(
      { host: "127.0.0.1", port, path: "/api/health", localAddress, agent: false, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(0));
  });
}

describe("one address sending slow headers", () => {
  it("holds no more than its share of connections while other addresses are served", async () => {
    const sockets = new Set<net.Socket>();
    const cutAfter: number[] = [];
    let opened = 0;
    let attacking = true;
    // 200 at once, and each one reopened as soon as it is closed, for the length of the test.
    const open = () => {
      const socket = slowHeaders(ATTACKER, (ms, timedOut) => {
        sockets.delete(socket);
        opened += 1;
        if (timedOut) cutAfter.push(ms);
        if (attacking) setTimeout(open, 20);
      });
      sockets.add(socket);
    };
    for (let i = 0; i < 200; i++) open();

    const statuses: number[] = [];
    let heldMost = 0;
    try {
      // 6 s of attack and at least 11 checks, however slowly a loaded machine answers them (60 s at most).
      const until = Date.now() + 6000;
      const ceiling = Date.now() + 60_000;
      while ((Date.now() < until || statuses.length <= 10) && Date.now() < ceiling) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        statuses.push(await health(NEIGHBOUR));
        heldMost = Math.max(heldMost, held.get(ATTACKER) ?? 0);
      }
    } finally {
      attacking = false;
      for (const socket of sockets) socket.destroy();
    }
    console.log(
      `[kassa] slow headers from one address: ${opened} connections opened and closed, at most ${heldMost} held ` +
        `(cap ${PER_ADDRESS}), ${cutAfter.length} answered 408 for slow headers after ${Math.min(...cutAfter)}–${Math.max(...cutAfter)} ms; ` +
        `health checks from another address: ${statuses.filter((s) => s === 200).length} of ${statuses.length} answered`,
    );
    // Every health check from the other address was answered.
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(heldMost).toBeLessThanOrEqual(PER_ADDRESS);
    // The ones let in were cut for their slow headers (the 408) after the 2 s header timeout, not at Node's 30 s (the
    // ceiling is generous: a loaded machine reads the timeout late).
    expect(cutAfter.length).toBeGreaterThan(0);
    expect(Math.min(...cutAfter)).toBeGreaterThanOrEqual(1900);
    expect(Math.max(...cutAfter)).toBeLessThan(20_000);
  });
});
