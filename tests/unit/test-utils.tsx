/**
 * Renders the app the way `main.tsx` does, with the real providers (jotai store, query client,
 * telegram-ui root, i18n, alerts) and the real routes in a memory router. Only the network is fake:
 * `stubApi` answers `fetch` by path.
 */
import type { User } from "@contract";
import { render } from "@testing-library/react";
import i18next from "i18next";
import { vi } from "vitest";
import { createTestRouter } from "@/app/router";
import { AppShell } from "@/app/shell";
import { initI18n, setLanguage } from "@/config/i18n";
import { alertsAtom } from "@/lib/alerts";
import { setNavigator } from "@/lib/navigation";
import { createQueryClient } from "@/lib/query-client";
import { clearSession, sessionStatusAtom, signIn } from "@/lib/session";
import { appStore } from "@/lib/store";

export const DEMO_USER: User = {
  id: "u1",
  login: "demo",
  fullName: "Demo Investor",
  email: "demo@example.com",
  phone: "+77010000000",
  phoneConfirmed: true,
  telegramLinked: false,
  language: "en",
  avatarUrl: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  subscription: { active: false, until: null },
  notifications: { unread: 0 },
};

let i18nReady: Promise<unknown> | undefined;

/** The real i18n set-up, in English (the browser language jsdom reports is en-US). */
export async function ensureI18n(): Promise<void> {
  i18nReady ??= initI18n();
  await i18nReady;
  if (i18next.language !== "en") await setLanguage("en");
}

export interface JsonReply {
  status?: number;
  body: unknown;
}

/** Answers `fetch` by API path; anything else is a 404 in the contract's error shape. */
export function stubApi(routes: Record<string, JsonReply | ((request: Request) => JsonReply)>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input), "http://localhost"), init);
    const path = new URL(request.url).pathname.replace(/^\/api/, "");
    const handler = routes[path];
    const reply = typeof handler === "function" ? handler(request) : handler;
    const { status = 200, body } = reply ?? { status: 404, body: { code: "NOT_FOUND", message: "Not found" } };
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

export const MAINTENANCE_OFF = { body: { enabled: false, message: null, until: null } };

export interface RenderAppOptions {
  path?: string;
  user?: User | null;
}

/** Renders the whole app at `path`, signed in as `user` when given. */
export async function renderApp({ path = "/", user = null }: RenderAppOptions = {}) {
  await ensureI18n();
  appStore.set(alertsAtom, []);
  if (user) signIn({ refreshToken: "token-1", user });
  else clearSession();
  appStore.set(sessionStatusAtom, "ready");

  const queryClient = createQueryClient();
  const router = createTestRouter(path);
  setNavigator((to, options) => {
    void router.navigate(to, options);
  });
  const view = render(<AppShell store={appStore} queryClient={queryClient} router={router} />);
  return { ...view, router, queryClient };
}
