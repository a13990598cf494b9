/**
 * Every reply is checked against its route's schema in the contract before anyone sees it. The check runs in a
 * worker (`reply-check.worker.ts`), which loads the contract's code (zod and every schema, about 37 KB gzip) on
 * its own thread: evaluated on the main thread, that code was the longest task of a cabinet's launch after the
 * balance showed (35–55 ms on this machine, four times that on a slow phone), and every check of a long list
 * (operations, partners) another. Where there is no worker (an old webview, a test without one) or it fails to
 * start, the check runs here, with the contract loaded on first use as before.
 */
import type { RouteName } from "@contract";
import { loadContract } from "./contract";

export interface CheckRequest {
  id: number;
  route: RouteName;
  data: unknown;
}

export interface CheckIssue {
  code: string;
  path: string[];
  message: string;
}

export type CheckResult = { ok: true; data: unknown } | { ok: false; issues: CheckIssue[] };

/** A reply that does not match its route's schema: what zod said, where. */
export class ReplyMismatch extends Error {
  override readonly name = "ReplyMismatch";
  constructor(readonly issues: CheckIssue[]) {
    super(issues.map((issue) => `${issue.path.join(".") || "(reply)"}: ${issue.message}`).join("; "));
  }
}

let worker: Worker | null | undefined;
let nextId = 0;
const pending = new Map<
  number,
  { request: CheckRequest; resolve(result: CheckResult): void; reject(error: unknown): void }
>();

async function checkHere({ route, data }: CheckRequest): Promise<CheckResult> {
  const checked = (await loadContract()).routes[route].response.safeParse(data);
  if (checked.success) return { ok: true, data: checked.data };
  return {
    ok: false,
    issues: checked.error.issues.map(({ code, path, message }) => ({ code, path: path.map(String), message })),
  };
}

/** The worker, started on first use; null where there is none (then every check runs here). */
function checker(): Worker | null {
  if (worker !== undefined) return worker;
  worker = null;
  if (typeof Worker !== "function") return null;
  try {
    const started = new Worker(new URL("./reply-check.worker.ts", import.meta.url), { name: "kassa-reply-check" });
    started.addEventListener("message", (event: MessageEvent<CheckResult & { id: number }>) => {
      const { id, ...result } = event.data;
      const waiting = pending.get(id);
      pending.delete(id);
      waiting?.resolve(result as CheckResult);
    });
    // Its code did not load (offline, refused) or it broke: what waits, and what comes, is checked here.
    started.addEventListener("error", (event) => {
      event.preventDefault();
      stopWorker();
    });
    worker = started;
  } catch {
    worker = null;
  }
  return worker;
}

function stopWorker(): void {
  worker?.terminate();
  worker = null;
  const waiting = [...pending.values()];
  pending.clear();
  for (const { request, resolve, reject } of waiting) checkHere(request).then(resolve, reject);
}

/**
 * `data` checked against `route`'s response schema: its parsed value, or what does not match. Rejects only when
 * the contract's code cannot be loaded at all (offline before it ever came).
 */
export function checkReply(route: RouteName, data: unknown): Promise<CheckResult> {
  const request: CheckRequest = { id: nextId++, route, data };
  const thread = checker();
  if (!thread) return checkHere(request);
  return new Promise<CheckResult>((resolve, reject) => {
    pending.set(request.id, { request, resolve, reject });
    try {
      thread.postMessage(request);
    } catch {
      // Not cloneable (never for a JSON reply): checked here.
      pending.delete(request.id);
      checkHere(request).then(resolve, reject);
    }
  });
}

/** Starts the worker ahead of the first check, so its code has loaded by the time a reply comes. */
export function prepareReplyCheck(): void {
  checker();
}
