/**
 * PGlite's calls take turns with the event loop (server/src/db/turns.ts): a connection opened while many calls wait
 * is accepted after the first of them, not once they have all run (a busy process accepts one connection per turn
 * of the loop). Counted by calls done, never by time.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../server/src/db/client";
import { pgliteTemplate } from "./helpers";

let handle: DatabaseHandle;
let server: Server;
beforeAll(async () => {
  handle = await openDatabase({ initialData: pgliteTemplate("migrated") });
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await handle?.close();
});

it("accepts a connection opened while 200 calls wait after the first of them, not after all", async () => {
  const port = (server.address() as { port: number }).port;
  let done = 0;
  const accepted = new Promise<number>((resolve) =>
    server.once("connection", (socket: Socket) => {
      resolve(done);
      socket.destroy();
    }),
  );
  const calls = Array.from({ length: 200 }, (_, i) =>
    handle.db.execute(sql`select ${i}::int as i`).then(() => {
      done += 1;
    }),
  );
  // Opened once the calls wait (the client's side of it completes at once: the accepting is the server's).
  const client = connect(port, "127.0.0.1");
  client.on("error", () => {});
  await Promise.all(calls);
  expect(done).toBe(200);
  const doneAtAccept = await accepted;
  client.destroy();
  console.log(`[turns] the connection was accepted after ${doneAtAccept} of 200 calls`);
  expect(doneAtAccept).toBeLessThan(10);
});
