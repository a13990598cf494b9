import type { TestProject } from "vitest/node";
import { ensureBuilt, ensureServerBuilt, type RunningServer, startServer } from "./support/server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's servers, one per worker (`support/app.ts` picks the worker's own). */
    e2eServers: { baseURL: string; env: Record<string, string> }[];
  }
}

/**
 * Real servers for the end-to-end run, as `npm start` runs them: the production build and the server's
 * built JavaScript (each rebuilt when older than its sources), the API and an embedded database each. A file changes its server's state (maintenance, the
 * development clock, settings): with a server per worker, files that run at the same time never see
 * each other's changes.
 */
export default async function setup(project: TestProject) {
  // One server per worker (the project's maxWorkers): the files of a worker run one after another against it.
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  ensureBuilt();
  await ensureServerBuilt();
  const servers: RunningServer[] = [];
  const stop = () => Promise.all(servers.map((server) => server.stop()));
  try {
    for (const server of await Promise.allSettled(Array.from({ length: workers }, () => startServer()))) {
      if (server.status === "rejected") throw server.reason;
      servers.push(server.value);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  project.provide(
    "e2eServers",
    servers.map((server) => ({ baseURL: server.baseURL, env: server.env })),
  );
  return stop;
}
