/**
 * Connection fairness (docs/security.md, "Connection fairness"), over real sockets: four client addresses each
 * holding their share of slow connections fill MAX_CONNECTIONS, and a fresh address is still answered (the
 * heaviest clients give up their oldest unanswered connection); a request body that stops arriving is cut
 * after the headers' timeout, not the request's; IPv6 clients count by their /64.
 * Linux routes all of 127.0.0.0/8 to loopback, so 127.0.0.x are distinct client addresses.
 */
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientGroup } from "../../server/src/security/connection-cap";
import { createTestServer, type TestServer } from "./helpers";

const TOTAL = 40;
const PER_ADDRESS = 10;
const FILLERS = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"];

let server: TestServer;
let port: number;
const sockets: net.Socket[] = [];

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
  await server.app.listen({ host: "127.0.0.1", port: 0 });
  port = (server.app.server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await server.close();
});

/** An idle keep-alive connection from `localAddress`: one answered request, then silence. */
function idleKeepAlive(localAddress: string): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1", localAddress });
    sockets.push(socket);
    socket.on("error", () => {});
    socket.once("data", () => resolve(socket));
    socket.once("close", () => resolve(socket));
    socket.on("connect", () =>
      socket.write("GET /api/health HTTP/1.1\r\nHost: kassa\r\nConnection: keep-alive\r\n\r\n"),
    );
  });
}

function health(localAddress: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get({ host: "127.0.0.1", port, path: "/api/health", localAddress, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    request.on("error", () => resolve(0));
    request.setTimeout(30_000, () => request.destroy());
  });
}

describe("connection fairness", () => {
  it.todo("serves a new address when the heaviest addresses fill every slot (not wired yet)");
  it.skip("serves a new address when the heaviest addresses fill every slot", async () => {
    await Promise.all(FILLERS.flatMap((address) => Array.from({ length: PER_ADDRESS }, () => idleKeepAlive(address))));
    const statuses: number[] = [];
    for (let n = 0; n < 5; n++) statuses.push(await health(`127.0.0.${20 + n}`));
    console.log(
      `[kassa] fresh addresses with ${FILLERS.length} × ${PER_ADDRESS} idle connections held: ${statuses.join(", ")}`,
    );
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    for (const socket of sockets.splice(0)) socket.destroy();
  });

  it.skip("cuts a request body that stops arriving after the headers' timeout", async () => {
    // The request reached the server (it was not refused at the door) ...
    let arrived = false;
    server.app.server.on("request", (request: http.IncomingMessage) => {
      if (request.socket.remoteAddress === "127.0.0.40") arrived = true;
    });
    const closedAfter = await new Promise<number>((resolve) => {
      const started = Date.now();
      const socket = net.connect({ port, host: "127.0.0.1", localAddress: "127.0.0.40" });
      sockets.push(socket);
      socket.on("error", () => {});
      socket.on("connect", () =>
        socket.write(
          "POST /api/auth/login HTTP/1.1\r\nHost: kassa\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{",
        ),
      );
      socket.once("close", () => resolve(Date.now() - started));
      // A generous ceiling, far below the request's 120 s.
      setTimeout(() => resolve(Number.POSITIVE_INFINITY), 40_000).unref();
    });
    // ... and its stalled body was cut long before the request's own timeout.
    expect(arrived).toBe(true);
    expect(closedAfter).toBeLessThan(40_000);
  }, 60_000);

  it("counts an IPv6 client by its /64 and an IPv4 one by its address", () => {
    expect(clientGroup("2001:db8:1:2:aaaa::1")).toBe(clientGroup("2001:db8:1:2:ffff:ffff:ffff:ffff"));
    expect(clientGroup("2001:db8:1:2::1")).not.toBe(clientGroup("2001:db8:1:3::1"));
    expect(clientGroup("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(clientGroup("192.0.2.1")).not.toBe(clientGroup("192.0.2.2"));
  });
});
