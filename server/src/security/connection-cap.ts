/**
 * Open connections per client (an IPv4 address, an IPv6 /64). Node's `maxConnections` caps the whole
 * process, so clients opening connections (and sending their headers or bodies slowly) could hold every
 * slot and starve everyone else; here a connection beyond MAX_CONNECTIONS_PER_ADDRESS from one client is
 * closed as it arrives, before a byte of it is read, and at MAX_CONNECTIONS the heaviest clients make way
 * (docs/security.md, "Connection fairness"). Connections from the proxies in TRUST_PROXY count in the
 * total only: behind a proxy every client arrives from its address, and the proxy caps them itself
 * (server/README.md, "Running in production").
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
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
  /** Its request being read or answered, until the answer has gone (none: an idle keep-alive, or headers still arriving). */
  request?: IncomingMessage;
  /** Counted no more: closed, or cut to make way. */
  released: boolean;
}

/** Being answered: its request arrived whole (headers and body) and the answer has not gone yet. */
const busy = (held: Held) => held.request?.complete === true;

/**
 * Fair shares of the connection slots. A new connection is closed when its client (`clientGroup`) already
 * holds `perClient` (a trusted proxy's count in `total` only). When `total` are held, a newcomer makes the
 * client holding most give up its oldest connection not being answered (an idle keep-alive, or one still
 * sending its headers or body), so a new client is always served; a newcomer whose own client holds as many
 * (or one fewer) is the one closed. The server must let one connection past `total` reach this (its
 * `maxConnections` at `total + 1`, `capConnections`): the newcomer is looked at in that slot, and at most
 * `total` stay. A request body that brings no byte for `bodyIdleMs` (the headers' timeout) is cut like slow
 * headers. Returns the connections of each client.
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
  const bySocket = new WeakMap<Socket, Held>();
  // Counted no more from the moment it is cut (Node counts it no more either), not when its close event comes.
  const release = (group: string, held: Held) => {
    if (held.released) return;
    held.released = true;
    count -= 1;
    const mine = open.get(group);
    if (!mine) return;
    const at = mine.indexOf(held);
    if (at >= 0) mine.splice(at, 1);
    if (mine.length === 0) open.delete(group);
  };
  // Requests whose body is still arriving, with the bytes read at the last look: one that got nothing new for
  // `bodyIdleMs` is cut, as Node cuts slow headers (a stalled body would otherwise hold its slot for
  // REQUEST_TIMEOUT). Bytes read but not yet taken by the app are the server's wait, not the client's.
  const arriving = new Map<Socket, { request: IncomingMessage; bytes: number; since: number }>();
  if (Number.isFinite(bodyIdleMs)) {
    const watch = setInterval(
      () => {
        const now = Date.now();
        for (const [socket, seen] of arriving) {
          if (socket.destroyed || seen.request.complete || seen.request.destroyed) arriving.delete(socket);
          else if (socket.bytesRead !== seen.bytes || seen.request.readableLength > 0) {
            arriving.set(socket, { request: seen.request, bytes: socket.bytesRead, since: now });
          } else if (now - seen.since >= bodyIdleMs) {
            arriving.delete(socket);
            socket.destroy();
          }
        }
      },
      Math.min(1000, Math.max(50, bodyIdleMs / 4)),
    );
    watch.unref();
    server.once("close", () => clearInterval(watch));
    server.on("request", (request: IncomingMessage) => {
      // `complete` turns true as the parser reads the request's end (its 'end' event waits for the app to read).
      if (!request.complete)
        arriving.set(request.socket, { request, bytes: request.socket.bytesRead, since: Date.now() });
    });
  }
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const held = bySocket.get(request.socket);
    if (!held) return;
    held.request = request;
    response.once("close", () => {
      if (held.request === request) held.request = undefined;
    });
  });
  // All `total` are held: the client holding most gives up its oldest connection not being answered, unless the
  // newcomer's client (`mine`) holds as many or one fewer. Whether the newcomer may stay.
  const makeWay = (mine: Held[] | undefined): boolean => {
    let heaviest: Held[] | undefined;
    let heaviestGroup = "";
    for (const [group, held] of open) {
      if (!heaviest || held.length > heaviest.length) {
        heaviest = held;
        heaviestGroup = group;
      }
    }
    if (!heaviest || heaviest === mine || heaviest.length <= (mine?.length ?? 0) + 1) return false;
    // The list is in the order they opened.
    const victim = heaviest.find((h) => !busy(h)) ?? heaviest[0];
    if (victim) {
      release(heaviestGroup, victim);
      victim.socket.destroy();
    }
    return true;
  };
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ? plainAddress(socket.remoteAddress) : "";
    // A trusted proxy's connections count in the total but for no client: never closed for a share, never made to give way.
    if (address === "" || exempt(address)) {
      if (count >= total && !makeWay(undefined)) {
        socket.destroy();
        return;
      }
      count += 1;
      socket.once("close", () => {
        count -= 1;
      });
      return;
    }
    const group = clientGroup(address);
    const list = open.get(group) ?? [];
    if (list.length >= perClient || (count >= total && !makeWay(list))) {
      socket.destroy();
      return;
    }
    const held: Held = { socket, released: false };
    bySocket.set(socket, held);
    list.push(held);
    open.set(group, list);
    count += 1;
    socket.once("close", () => release(group, held));
  });
  return open;
}
