/** Types of demo-server.mjs: Kassa started for a benchmark, and the demo investor signed in through its API. */
export { freePort } from "./free-port.mjs";
export function startKassa(options?: {
  quiet?: boolean;
  env?: Record<string, string>;
}): Promise<{ base: string; pid: number | undefined; stop(): Promise<void> }>;
export function demoSession(base: string): Promise<{ refreshToken: string; user: unknown }>;
export function keepSession(
  context: import("playwright-core").BrowserContext,
  base: string,
  session: { refreshToken: string; user: unknown },
): Promise<void>;
