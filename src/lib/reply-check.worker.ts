/**
 * The contract's reply check, off the main thread (`reply-check.ts`): this worker loads the contract (zod and every
 * route's schema) and checks each reply it is sent against its route's response schema.
 */
import { type RouteName, routes } from "@contract";
import type { CheckRequest, CheckResult } from "./reply-check";

const scope = self as unknown as {
  addEventListener(type: "message", listener: (event: MessageEvent<CheckRequest>) => void): void;
  postMessage(message: CheckResult & { id: number }): void;
};

scope.addEventListener("message", (event) => {
  const { id, route, data } = event.data;
  const schema = routes[route as RouteName]?.response;
  if (!schema) {
    scope.postMessage({ id, ok: false, issues: [{ code: "custom", path: [], message: `no route ${route}` }] });
    return;
  }
  const checked = schema.safeParse(data);
  scope.postMessage(
    checked.success
      ? { id, ok: true, data: checked.data }
      : {
          id,
          ok: false,
          issues: checked.error.issues.map(({ code, path, message }) => ({ code, path: path.map(String), message })),
        },
  );
});
