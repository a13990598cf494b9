/**
 * What a slow or greedy client can hold over real sockets: an upload refused by its
 * Content-Length before its body is read (and the connection closed), a request trickling in a
 * byte at a time cut off at REQUEST_TIMEOUT_SECONDS, idle keep-alive connections closed, and no
 * more than MAX_CONNECTIONS connections at once.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestServer, type TestServer } from "./helpers";

let server: TestServer;
let port: number;

beforeAll(async () => {
  server = await createTestServer({
    seed: false,
    env: { REQUEST_TIMEOUT_SECONDS: "2", KEEP_ALIVE_TIMEOUT_SECONDS: "1", MAX_CONNECTIONS: "8" },
  });
  await server.app.listen({ host: "127.0.0.1", port: 0 });
  port = (server.app.server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await server.close();
});

interface Exchange {
  /** Everything the server sent. */
  reply: string;
  /** Body bytes the client managed to write before the server closed the connection. */
  written: number;
  /** Whether the server ended the connection (not the client's own give-up after 30 s). */
  closedByServer: boolean;
}

/**
 * Sends `head`, then body bytes in 64 KiB chunks (up to `bodyBytes`), every `everyMs`, until the
 * server ends the connection.
 */
function exchange(
  head: string,
  bodyBytes: number,
  options: { chunk?: number; everyMs?: number; waitForReply?: boolean } = {},
) {
  const chunk = Buffer.alloc(options.chunk ?? 64 * 1024, "a");
  return new Promise<Exchange>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let reply = "";
    let written = 0;
    let closed = false;
    let gaveUp = false;
    const finish = () => {
      if (closed) return;
      closed = true;
      resolve({ reply, written, closedByServer: !gaveUp });
    };
    let replied: () => void = () => {};
    const firstReply = new Promise<void>((resolve) => {
      replied = resolve;
    });
    socket.on("data", (data) => {
      reply += data.toString("latin1");
      replied();
    });
    socket.on("error", finish);
    socket.on("close", finish);
    socket.setTimeout(30_000, () => {
      gaveUp = true;
      socket.destroy();
    });
    const pump = () => {
      if (closed || socket.destroyed || written >= bodyBytes) return;
      written += chunk.length;
      const more = socket.write(chunk);
      if (options.everyMs) setTimeout(pump, options.everyMs);
      else if (more) setImmediate(pump);
      else socket.once("drain", pump);
    };
    socket.on("connect", async () => {
      socket.write(head);
      if (options.waitForReply) {
        // One chunk, then the reply (which a client that keeps writing may lose to the reset),
        // then the rest of the body for as long as the server lets it in.
        written += chunk.length;
        socket.write(chunk);
        await Promise.race([firstReply, new Promise((resolve) => setTimeout(resolve, 5000))]);
      }
      pump();
    });
  });
}

describe("uploads", () => {
  it("refuses a 100 MiB avatar by its Content-Length, even with a bad token, and closes the connection unread", async () => {
    const size = 100 * 1024 * 1024;
    const result = await exchange(
      "PATCH /api/user/avatar HTTP/1.1\r\nHost: kassa\r\nAuthorization: Bearer not-a-session\r\n" +
        `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${size}\r\n\r\n`,
      size,
      { waitForReply: true },
    );
    expect(result.reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(result.reply.toLowerCase()).toContain("connection: close");
    expect(result.reply).toContain('"code":"IMAGE_UPDATE_FAILED"');
    expect(result.reply).toContain('"avatar":"imageSize"');
    // The connection ended long before the body could have been read to its end.
    expect(result.written).toBeLessThan(size / 4);
  });

  it("refuses an upload without a Content-Length (a chunked body) before reading it", async () => {
    const result = await exchange(
      "PATCH /api/user-data/verification HTTP/1.1\r\nHost: kassa\r\nAuthorization: Bearer not-a-session\r\n" +
        "Content-Type: multipart/form-data; boundary=x\r\nTransfer-Encoding: chunked\r\n\r\n",
      0,
    );
    expect(result.reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(result.reply).toContain('"code":"VERIFICATION_REQUEST_FAILED"');
    expect(result.reply.toLowerCase()).toContain("connection: close");
  });

  it("closes the connection of an upload refused for its session", async () => {
    const result = await exchange(
      "PATCH /api/user/avatar HTTP/1.1\r\nHost: kassa\r\nAuthorization: Bearer not-a-session\r\n" +
        "Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 4096\r\n\r\n",
      0,
    );
    expect(result.reply).toMatch(/^HTTP\/1\.1 401 /);
    expect(result.reply.toLowerCase()).toContain("connection: close");
  });
});

describe("timeouts and the connection cap", () => {
  it("cuts off a request whose body trickles in slower than REQUEST_TIMEOUT_SECONDS allows", async () => {
    const result = await exchange(
      "POST /api/auth/login HTTP/1.1\r\nHost: kassa\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
      1000,
      { chunk: 1, everyMs: 200 },
    );
    // 2 s allowed, checked every second: cut off after a few of the 1000 bytes (200 s at this pace).
    expect(result.written).toBeLessThan(40);
    expect(result.reply).toMatch(/^(HTTP\/1\.1 408 |$)/);
  });

  it("closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_SECONDS", async () => {
    const result = await exchange("GET /api/health HTTP/1.1\r\nHost: kassa\r\n\r\n", 0);
    expect(result.reply).toMatch(/^HTTP\/1\.1 200 /);
    // Closed by the server, not by the client's own give-up after 30 s without a byte.
    expect(result.closedByServer).toBe(true);
  });

  it("accepts no more than MAX_CONNECTIONS connections at once", async () => {
    const sockets: net.Socket[] = [];
    const closedEarly: boolean[] = [];
    try {
      for (let i = 0; i < 16; i++) {
        const socket = net.connect(port, "127.0.0.1");
        const index = i;
        closedEarly[index] = false;
        socket.on("close", () => {
          closedEarly[index] = true;
        });
        socket.on("error", () => {});
        sockets.push(socket);
        await new Promise((resolve) => socket.once("connect", resolve));
      }
      // The eight past the cap are closed on arrival (a condition, with a generous ceiling: a loaded machine reads the
      // closes late); the first eight are held open (silent, within the timeouts).
      await vi.waitFor(() => expect(closedEarly.slice(8).every(Boolean)).toBe(true), { timeout: 30_000, interval: 20 });
      expect(closedEarly.slice(0, 8).every((c) => !c)).toBe(true);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});
