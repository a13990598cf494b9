/**
 * The app's router (src/lib/router.tsx) in the page's own history: what react-router did and the app relies on
 * (docs/decisions.md#the-router). The app's screens are tested in memory (tests/unit/test-utils.tsx).
 */
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { type ComponentType, lazy, Suspense } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hasInAppHistory } from "@/lib/navigation";
import {
  BrowserRouter,
  Link,
  type Location,
  MemoryRouter,
  type NavigateFunction,
  type NavigationType,
  Route,
  Switch,
  useLocation,
  useNavigate,
  useNavigationType,
  useParams,
  useSearchParams,
} from "@/lib/router";

interface Seen {
  location: Location;
  type: NavigationType;
  navigate: NavigateFunction;
  params: URLSearchParams;
  setParams: ReturnType<typeof useSearchParams>[1];
}
let seen: Seen;

function Probe() {
  const [params, setParams] = useSearchParams();
  seen = { location: useLocation(), type: useNavigationType(), navigate: useNavigate(), params, setParams };
  return null;
}

function NewsItem() {
  const { id } = useParams();
  return <p data-testid="item">{id}</p>;
}

function App() {
  return (
    <>
      <Probe />
      <Switch>
        <Route path="/news/:id">
          <NewsItem />
        </Route>
        <Route path="/news">
          <Link to="/news/7">Seven</Link>
          <Link to="/news">News</Link>
        </Route>
        <Route>
          <p data-testid="not-found" />
        </Route>
      </Switch>
    </>
  );
}

const pageState = () => window.history.state as { usr?: unknown; key?: string; idx?: number } | null;

// The document is shared with the other unit tests, whose memory router reads the page's `idx` too.
beforeEach(() => window.history.replaceState(null, "", "/news"));
afterEach(() => window.history.replaceState(null, "", "/"));

describe("the router in the page's history", () => {
  it("numbers the entries as react-router did, carries a navigation's state, and tells Back by POP", async () => {
    render(
      <BrowserRouter>
        <App />
      </BrowserRouter>,
    );
    expect(pageState()).toEqual({ idx: 0 });
    expect(seen.location).toMatchObject({ pathname: "/news", key: "default", state: null });
    expect(seen.type).toBe("POP");
    expect(hasInAppHistory(seen.location)).toBe(false);

    act(() => seen.navigate("/news/42?x=1#top", { state: { login: "demo" } }));
    await waitFor(() => expect(screen.getByTestId("item").textContent).toBe("42"));
    expect(seen.location).toMatchObject({
      pathname: "/news/42",
      search: "?x=1",
      hash: "#top",
      state: { login: "demo" },
    });
    expect(seen.type).toBe("PUSH");
    expect(pageState()).toEqual({ usr: { login: "demo" }, key: seen.location.key, idx: 1 });
    expect(hasInAppHistory(seen.location)).toBe(true);

    act(() => seen.navigate("/news/43", { replace: true }));
    await waitFor(() => expect(screen.getByTestId("item").textContent).toBe("43"));
    expect(seen.type).toBe("REPLACE");
    expect(pageState()).toMatchObject({ usr: null, idx: 1 });

    act(() => seen.navigate(-1));
    await waitFor(() => expect(seen.location.pathname).toBe("/news"));
    expect(seen.type).toBe("POP");
    expect(seen.location.key).toBe("default");
  });

  it("a link to where the user is replaces that entry; one elsewhere adds one; a modified click is the browser's", async () => {
    render(
      <BrowserRouter>
        <App />
      </BrowserRouter>,
    );
    const before = seen.location.key;
    fireEvent.click(screen.getByText("News"));
    await waitFor(() => expect(seen.location.key).not.toBe(before));
    expect(seen.type).toBe("REPLACE");
    expect(pageState()?.idx).toBe(0);

    fireEvent.click(screen.getByText("Seven"), { ctrlKey: true });
    expect(seen.location.pathname).toBe("/news");
    fireEvent.click(screen.getByText("Seven"));
    await waitFor(() => expect(screen.getByTestId("item").textContent).toBe("7"));
    expect(seen.type).toBe("PUSH");
    expect(pageState()?.idx).toBe(1);
  });

  it("changes the query on the same path, and reads it as the address has it", async () => {
    window.history.replaceState(null, "", "/news?next=%2Frefill%3Fa%3D1&q=50%25");
    render(
      <BrowserRouter>
        <App />
      </BrowserRouter>,
    );
    expect(seen.params.get("next")).toBe("/refill?a=1");
    expect(seen.params.get("q")).toBe("50%");
    act(() => seen.setParams({ view: "cases" }, { replace: true }));
    await waitFor(() => expect(seen.location.search).toBe("?view=cases"));
    expect(window.location.pathname).toBe("/news");
    act(() => seen.setParams({}));
    await waitFor(() => expect(seen.location.search).toBe(""));
    expect(seen.type).toBe("PUSH");
  });
});

describe("the router in memory", () => {
  it("goes back through its own entries, the first one's key telling it is the first", async () => {
    render(
      <MemoryRouter initialEntries={["/news"]}>
        <App />
      </MemoryRouter>,
    );
    expect(seen.location.key).toBe("default");
    act(() => seen.navigate("/news/5"));
    await waitFor(() => expect(screen.getByTestId("item").textContent).toBe("5"));
    expect(hasInAppHistory(seen.location)).toBe(true);
    act(() => seen.navigate("/elsewhere"));
    await waitFor(() => expect(screen.getByTestId("not-found")).toBeTruthy());
    act(() => seen.navigate(-1));
    await waitFor(() => expect(screen.getByTestId("item").textContent).toBe("5"));
    expect(seen.type).toBe("POP");
    // The page's own history is left alone.
    expect(window.location.pathname).toBe("/news");
  });

  it("renders a location change in a transition: the screen before stays on view while the next one's code comes", async () => {
    let loaded: (module: { default: ComponentType }) => void = () => undefined;
    const Later = lazy(() => new Promise<{ default: ComponentType }>((resolve) => (loaded = resolve)));
    render(
      <MemoryRouter initialEntries={["/news"]}>
        <Probe />
        <Suspense fallback={<p data-testid="fallback" />}>
          <Switch>
            <Route path="/news">
              <p data-testid="before" />
            </Route>
            <Route path="/later">
              <Later />
            </Route>
          </Switch>
        </Suspense>
      </MemoryRouter>,
    );
    act(() => seen.navigate("/later"));
    expect(screen.getByTestId("before")).toBeTruthy();
    expect(screen.queryByTestId("fallback")).toBeNull();
    await act(async () => loaded({ default: () => <p data-testid="after" /> }));
    await waitFor(() => expect(screen.getByTestId("after")).toBeTruthy());
    expect(seen.location.pathname).toBe("/later");
  });
});
