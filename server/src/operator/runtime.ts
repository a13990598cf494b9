/**
 * How the operator CLI finds a running server. PGlite is single-process: while the server holds
 * the database folder the CLI cannot open it, so the server leaves its address and operator token
 * beside the folder (`<DATA_DIR>.operator.json`, readable by its owner only) and the CLI sends its
 * commands to `/api/operator/*` instead. The file is removed at shutdown; a stale one is ignored
 * because its pid no longer holds the folder lock.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

export const ServerRuntimeInfo = z.object({
  pid: z.number().int().positive(),
  url: z.url(),
  token: z.string().min(16),
});
export type ServerRuntimeInfo = z.infer<typeof ServerRuntimeInfo>;

export function runtimeFilePath(dataDir: string): string {
  return `${path.resolve(dataDir)}.operator.json`;
}

export function writeRuntimeInfo(dataDir: string, info: ServerRuntimeInfo): string {
  const file = runtimeFilePath(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // A new file, so the mode applies even when an old one (with other permissions) was left behind.
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600, flag: "wx" });
  return file;
}

export function readRuntimeInfo(dataDir: string): ServerRuntimeInfo | null {
  try {
    const parsed = ServerRuntimeInfo.safeParse(JSON.parse(fs.readFileSync(runtimeFilePath(dataDir), "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Removes the file if it is this process's. */
export function removeRuntimeInfo(dataDir: string, pid = process.pid): void {
  if (readRuntimeInfo(dataDir)?.pid === pid) fs.rmSync(runtimeFilePath(dataDir), { force: true });
}

/** The URL a local client reaches a server listening on `host:port` at. */
export function localUrl(host: string, port: number): string {
  if (host === "0.0.0.0" || host === "" || host === "localhost") return `http://127.0.0.1:${port}`;
  if (host === "::" || host === "::1") return `http://[::1]:${port}`;
  return host.includes(":") ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}
