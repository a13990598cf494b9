/**
 * The guards lead a user on (signed out to the login, a phone waiting for its code to its confirmation, signed in
 * away from the login) with the app's spinner on view: the router renders the way on in a transition, which keeps
 * what was on view until the next screen's code and texts have come, and that must not be an empty page.
 */

import type { User } from "@contract";
import { act, render, screen } from "@testing-library/react";
import { Provider } from "jotai";
import { type ComponentType, lazy, type ReactNode, Suspense } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { RedirectSignedIn, RequirePhonePending, RequireSession } from "@/app/guards";
import { MemoryRouter, Route, Switch, useLocation } from "@/lib/router";
import { clearSession, signIn } from "@/lib/session";
import { appStore } from "@/lib/store";
import { DEMO_USER } from "./test-utils";

function Where() {
  const location = useLocation();
  return <span data-testid="where">{`${location.pathname}${location.search}`}</span>;
}

/** A screen whose code comes when the test lets it (`come()`), as a lazy screen's does over a slow link. */
function later(text: string) {
  let come: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => {
    come = resolve;
  });
  const Screen = lazy(() => arrived.then(() => ({ default: () => <p>{text}</p> })));
  return { Screen, come: () => act(async () => come()) };
}

function renderAt(path: string, routes: ReactNode) {
  return render(
    <Provider store={appStore}>
      <MemoryRouter initialEntries={[path]}>
        <Suspense fallback={<p>the fallback</p>}>
          <Switch>{routes}</Switch>
        </Suspense>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
}

const PENDING = { ...DEMO_USER, phone: "+77010000000", phoneConfirmed: false };

type Guard = ComponentType<{ children: ReactNode }>;
const Open: Guard = ({ children }) => children;

/**
 * Each guard's way on: who, from which screen (behind `guard`) to which (behind `nextGuard`, its code held back by
 * the test), and the address it ends at.
 */
const WAYS: { name: string; user: User | null; from: string; guard: Guard; to: string; nextGuard: Guard }[] = [
  {
    name: "the login, to a signed-out visitor of a cabinet screen",
    ...{ user: null, from: "/deposits", guard: RequireSession, to: "/login?next=%2Fdeposits", nextGuard: Open },
  },
  {
    name: "the confirmation, to an investor whose phone waits for its code",
    ...{ user: PENDING, from: "/", guard: RequireSession, to: "/phone-verification", nextGuard: RequirePhonePending },
  },
  {
    name: "the cabinet, to a signed-in user on the login",
    ...{ user: DEMO_USER, from: "/login", guard: RedirectSignedIn, to: "/", nextGuard: Open },
  },
];

afterEach(() => clearSession());

describe("a guard's way on", () => {
  for (const { name, user, from, guard: Leaving, to, nextGuard: Guarded } of WAYS)
    it(`shows the spinner, then ${name}`, async () => {
      if (user) signIn({ refreshToken: "token-1", user });
      else clearSession();
      const next = later("the next screen");
      renderAt(from, [
        <Route key="from" path={from}>
          <Leaving>
            <p>the screen left</p>
          </Leaving>
        </Route>,
        <Route key="to" path={to.split("?")[0] ?? to}>
          <Guarded>
            <next.Screen />
          </Guarded>
        </Route>,
      ]);
      // While the next screen's code is on its way: the spinner, nothing else of the app's.
      expect(screen.getByRole("status")).toBeTruthy();
      expect(screen.queryByText("the screen left")).toBeNull();
      expect(screen.queryByText("the fallback")).toBeNull();
      await next.come();
      await screen.findByText("the next screen");
      expect(screen.getByTestId("where").textContent).toBe(to);
    });
});
