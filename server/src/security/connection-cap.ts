/**
 * Open connections per client (an IPv4 address, an IPv6 /64). Node's `maxConnections` caps the whole
 * process, so clients opening connections (and sending their headers or bodies slowly) could hold every
 * slot and starve everyone else; here a connection beyond MAX_CONNECTIONS_PER_ADDRESS from one client is
 * closed as it arrives, before a byte of it is read, and near MAX_CONNECTIONS the heaviest clients make way
 * (docs/security.md, "Connection fairness"). Connections from the proxies in TRUST_PROXY are not
 * counted: behind a proxy every client arrives from its address, and the proxy caps them itself
 * (server/README.md, "Running in production").
 */
import type { Server } from "node:http";
import { BlockList, isIPv4, type Socket } from "node:net";
import { NAMED_PROXY_RANGES } from "../env";

/** An IPv4 address as Node reports it on a dual-stack socket (`::ffff:127.0.0.1`) in its plain form. */
function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped?.[1] ?? address;
}

/** Whether an address belongs to TRUST_PROXY's list (false: nobody's does). */
export function proxyMatcher(trustProxy: false | string): (address: string) => boolean {
  if (trustProxy === false) return () => false;
  const list = new BlockList();
  const add = (entry: string) => {
    const [address = "", prefix] = entry.split("/");
    const type = isIPv4(address) ? "ipv4" : "ipv6";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  };
  for (const entry of trustProxy.split(",")) {
    for (const range of NAMED_PROXY_RANGES[entry] ?? [entry]) add(range);
  }
  return (address) => {
    const plain = plainAddress(address);
    return list.check(plain, isIPv4(plain) ? "ipv4" : "ipv6");
  };
}

/**
 * The client a connection counts for: an IPv4 address as it is, an IPv6 address by its /64 (one
 * subscriber's network: a client holds a whole /64 and could otherwise pick a new address per connection).
 */
export function clientGroup(address: string): string {
  const plain = plainAddress(address);
  if (isIPv4(plain) || !plain.includes(":")) return plain;
  const [head = "", tail = ""] = plain.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  const hextets = plain.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${hextets
    .slice(0, 4)
    .map((h) => Number.parseInt(h || "0", 16).toString(16))
    .join(":")}::/64`;
}

interface Held {
  socket: Socket;
  openedAt: number;
  /** A request of it is being answered (its headers and body arrived). */
  busy: boolean;
}

/**
 * Fair shares of the connection slots. A new connection is closed when its client (`clientGroup`) already
 * holds `perClient` (a trusted proxy's are never closed for this). When the open connections near `total`
 * (Node refuses past it), the client holding most gives up its oldest connection that is not being answered
 * (an idle keep-alive, or one still sending its headers or body slowly), so a new client is always served;
 * a newcomer that is itself the heaviest client is the one closed. A request body that brings no byte for
 * `bodyIdleMs` (the headers' timeout) is cut like slow headers. Returns the connections of each client.
 */
export function capConnectionsPerAddress(
  server: Server,
  perClient: number,
  exempt: (address: string) => boolean,
  total = Number.POSITIVE_INFINITY,
  bodyIdleMs = Number.POSITIVE_INFINITY,
): Map<string, Held[]> {
  const open = new Map<string, Held[]>();
  let count = 0;
  // Room kept for newcomers: past this the heaviest client makes way.
  const room = Number.isFinite(total) ? Math.max(1, Math.floor(total * 0.02)) : 0;
  const bySocket = new WeakMap<Socket, Held>();
  // Bodies still arriving, with the bytes read at the last look: one that got nothing new for `bodyIdleMs`
  // is cut, as Node cuts slow headers (a slow body would otherwise hold its slot for REQUEST_TIMEOUT).
  const arriving = new Map<Socket, { bytes: number; since: number }>();
  if (Number.isFinite(bodyIdleMs)) {
    const watch = setInterval(
      () => {
        const now = Date.now();
        for (const [socket, seen] of arriving) {
          if (socket.destroyed) arriving.delete(socket);
          else if (socket.bytesRead !== seen.bytes) arriving.set(socket, { bytes: socket.bytesRead, since: now });
          else if (now - seen.since >= bodyIdleMs) {
            arriving.delete(socket);
            socket.destroy();
          }
        }
      },
      Math.min(1000, Math.max(50, bodyIdleMs / 4)),
    );
    watch.unref();
    server.once("close", () => clearInterval(watch));
  }
  server.on("request", (request, response) => {
    const held = bySocket.get(request.socket);
    // Answered from the moment the whole request is in; until then it is a slow client like the others.
    const start = () => {
      arriving.delete(request.socket);
      if (held) held.busy = true;
    };
    if (request.complete) start();
    else {
      arriving.set(request.socket, { bytes: request.socket.bytesRead, since: Date.now() });
      request.once("end", start);
      request.once("close", () => arriving.delete(request.socket));
    }
    if (!held) return;
    response.once("close", () => {
      held.busy = false;
    });
  });
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ? plainAddress(socket.remoteAddress) : "";
    if (address === "" || exempt(address)) return;
    const group = clientGroup(address);
    const list = open.get(group) ?? [];
    if (list.length >= perClient) {
      socket.destroy();
      return;
    }
    if (count + room >= total) {
      let heaviest: Held[] | undefined;
      for (const held of open.values()) if (!heaviest || held.length > heaviest.length) heaviest = held;
      if (!heaviest || heaviest === list || heaviest.length <= list.length + 1) {
        socket.destroy();
        return;
      }
      const victim = heaviest.find((h) => !h.busy) ?? heaviest[0];
      victim?.socket.destroy();
    }
    const held: Held = { socket, openedAt: Date.now(), busy: false };
    bySocket.set(socket, held);
    list.push(held);
    open.set(group, list);
    count += 1;
    socket.once("close", () => {
      count -= 1;
      const mine = open.get(group);
      if (!mine) return;
      const at = mine.indexOf(held);
      if (at >= 0) mine.splice(at, 1);
      if (mine.length === 0) open.delete(group);
    });
  });
  return open;
}
