import type { TestProject } from "vitest/node";
import { ensureBuilt, startServer } from "./support/server";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    serverEnv: Record<string, string>;
  }
}

/** One real server for the end-to-end run: the production build, the API and an embedded database. */
export default async function setup(project: TestProject) {
  ensureBuilt();
  const server = await startServer();
  project.provide("baseURL", server.baseURL);
  project.provide("serverEnv", server.env);
  return () => server.stop();
}
