/** Types of free-port.mjs: a port nothing listens on now, on loopback. */
export function freePort(): Promise<number>;
