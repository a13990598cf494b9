/**
 * The guards lead a user on (signed out to the login, a phone waiting for its code to its confirmation, signed in
 * away from the login) with the app's spinner on view: the router renders the way on in a transition, which keeps
 * what was on view until the next screen's code and texts have come, and that must not be an empty page.
 */
import { act, render, screen } from "@testing-library/react";
import { Provider } from "jotai";
import { lazy, type ReactNode, Suspense } from "react";
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

/** While the next screen's code is on its way: the spinner, nothing else of the app's. */
function expectSpinnerOnly(hidden: string) {
  expect(screen.getByRole("status")).toBeTruthy();
  expect(screen.queryByText(hidden)).toBeNull();
  expect(screen.queryByText("the fallback")).toBeNull();
}

const PENDING = { ...DEMO_USER, phone: "+77010000000", phoneConfirmed: false };

afterEach(() => clearSession());

describe("a guard's way on", () => {
  it("shows the spinner, then the login, to a signed-out visitor of a cabinet screen", async () => {
    clearSession();
    const login = later("the login");
    renderAt("/deposits", [
      <Route key="login" path="/login">
        <login.Screen />
      </Route>,
      <Route key="cabinet">
        <RequireSession>
          <p>the deposits</p>
        </RequireSession>
      </Route>,
    ]);
    expectSpinnerOnly("the deposits");
    await login.come();
    await screen.findByText("the login");
    expect(screen.getByTestId("where").textContent).toBe("/login?next=%2Fdeposits");
  });

  it("shows the spinner, then the confirmation, to an investor whose phone waits for its code", async () => {
    signIn({ refreshToken: "token-1", user: PENDING });
    const confirmation = later("the confirmation");
    renderAt("/", [
      <Route key="phone" path="/phone-verification">
        <RequirePhonePending>
          <confirmation.Screen />
        </RequirePhonePending>
      </Route>,
      <Route key="cabinet">
        <RequireSession>
          <p>the cabinet</p>
        </RequireSession>
      </Route>,
    ]);
    expectSpinnerOnly("the cabinet");
    await confirmation.come();
    await screen.findByText("the confirmation");
  });

  it("shows the spinner, then the cabinet, to a signed-in user on the login", async () => {
    signIn({ refreshToken: "token-1", user: DEMO_USER });
    const cabinet = later("the cabinet");
    renderAt("/login", [
      <Route key="login" path="/login">
        <RedirectSignedIn>
          <p>the login</p>
        </RedirectSignedIn>
      </Route>,
      <Route key="cabinet">
        <cabinet.Screen />
      </Route>,
    ]);
    expectSpinnerOnly("the login");
    await cabinet.come();
    await screen.findByText("the cabinet");
    expect(screen.getByTestId("where").textContent).toBe("/");
  });
});
