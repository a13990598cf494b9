/** The server of this test worker (tests/e2e/global-setup.ts starts one per worker). */
import { inject } from "vitest";

export function e2eServer(): { baseURL: string; env: Record<string, string> } {
  const servers = inject("e2eServers");
  const worker = Number(process.env.VITEST_POOL_ID ?? "1");
  const server = servers[(worker - 1) % servers.length];
  if (!server) throw new Error("no e2e server: run the e2e project, whose global setup starts them");
  return server;
}

export const base = () => e2eServer().baseURL;
