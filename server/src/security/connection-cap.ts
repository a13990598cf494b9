/**
 * Open connections per client address. Node's `maxConnections` caps the whole process, so one
 * address opening connections (and sending its headers slowly) could hold every slot and starve
 * everyone else; here a connection beyond MAX_CONNECTIONS_PER_ADDRESS from one address is closed as
 * it arrives, before a byte of it is read. Connections from the proxies in TRUST_PROXY are not
 * counted: behind a proxy every client arrives from its address, and the proxy caps them itself
 * (server/README.md, "Behind a proxy").
 */
import type { Server } from "node:http";
import { BlockList, isIPv4 } from "node:net";
import { NAMED_PROXY_RANGES } from "../env";

/** An IPv4 address as Node reports it on a dual-stack socket (`::ffff:127.0.0.1`) in its plain form. */
export function plainAddress(address: string): string {
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
 * Closes a new connection when its address already holds `max` open ones (a trusted proxy's are
 * never closed for this). Returns how many each address holds.
 */
export function capConnectionsPerAddress(
  server: Server,
  max: number,
  exempt: (address: string) => boolean,
): Map<string, number> {
  const open = new Map<string, number>();
  server.on("connection", (socket) => {
    const address = socket.remoteAddress ? plainAddress(socket.remoteAddress) : "";
    if (address === "" || exempt(address)) return;
    const held = open.get(address) ?? 0;
    if (held >= max) {
      socket.destroy();
      return;
    }
    open.set(address, held + 1);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
  return open;
}
