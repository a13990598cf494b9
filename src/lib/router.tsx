/**
 * The app's routing (docs/decisions.md#the-router): wouter matches the routes (`Switch`, `Route`, `useParams`);
 * this module keeps the history it reads, and the app's links. What wouter leaves out and the app relies on
 * is here, in react-router's terms and with its behaviour (the app used react-router before):
 *
 * - each entry has a `key` and a `state`, and the page's history state keeps react-router's shape (`usr`, `key`,
 *   `idx`), so `hasInAppHistory` (src/lib/navigation.ts) tells the app's own entries by their index;
 * - how the location last changed (`useNavigationType`: POP for Back, Forward and the first location);
 * - `navigate(-1)`, in the browser and in memory (the tests, the build's render of the painted cabinet);
 * - a location change renders in a transition, as react-router's does: a screen whose code is still coming
 *   leaves the one before it on view instead of a spinner, and a change made with others in one transition
 *   (signing out and going to the login) commits with them;
 * - a link to where the user already is replaces that entry instead of adding one, and the link's own `onClick`
 *   runs first and may take the click;
 * - `useSearchParams` reads the address's own query (wouter's decodes it once more).
 */
import {
  type AnchorHTMLAttributes,
  createContext,
  forwardRef,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
} from "react";
import { Router as WouterRouter } from "wouter";

export { Route, Switch, useParams } from "wouter";

/** How the location last changed: POP (the first location, Back, Forward), PUSH or REPLACE. */
export type NavigationType = "POP" | "PUSH" | "REPLACE";

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation that made this entry carried (`navigate(to, { state })`), else null. */
  state: unknown;
  /** The entry's own id: "default" for the first entry the router found, a new one for each navigation. */
  key: string;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export type NavigateFunction = (to: string | number, options?: NavigateOptions) => void;

interface Update {
  action: NavigationType;
  location: Location;
}

interface History {
  readonly action: NavigationType;
  readonly location: Location;
  push(to: string, state?: unknown): void;
  replace(to: string, state?: unknown): void;
  go(delta: number): void;
  /** One listener at a time, as the router has one. */
  listen(listener: (update: Update) => void): () => void;
}

const createKey = () => Math.random().toString(36).substring(2, 10);

function parsePath(path: string): Pick<Location, "pathname" | "search" | "hash"> {
  let rest = path;
  let hash = "";
  let search = "";
  const hashAt = rest.indexOf("#");
  if (hashAt >= 0) {
    hash = rest.substring(hashAt);
    rest = rest.substring(0, hashAt);
  }
  const searchAt = rest.indexOf("?");
  if (searchAt >= 0) {
    search = rest.substring(searchAt);
    rest = rest.substring(0, searchAt);
  }
  return { pathname: rest, search: search === "?" ? "" : search, hash: hash === "#" ? "" : hash };
}

function createPath({ pathname, search, hash }: Pick<Location, "pathname" | "search" | "hash">): string {
  return `${pathname}${search}${hash}`;
}

function createLocation(current: Location | undefined, to: string, state: unknown, key?: string): Location {
  const path = parsePath(to);
  // A path of only a query or a hash stays on the current path.
  const pathname = path.pathname || (current?.pathname ?? "/");
  return { ...path, pathname, state: state ?? null, key: key ?? createKey() };
}

/** The entry's state in the page's history: react-router's shape, so entries made before a deploy still count. */
interface HistoryState {
  usr?: unknown;
  key?: string;
  idx?: number;
}

function createBrowserHistory(): History {
  const page = window.history;
  const pageState = () => page.state as HistoryState | null;
  let action: NavigationType = "POP";
  let listener: ((update: Update) => void) | null = null;
  if (pageState()?.idx == null) page.replaceState({ ...pageState(), idx: 0 }, "");
  const read = (): Location => {
    const { pathname, search, hash } = window.location;
    return { pathname, search, hash, state: pageState()?.usr || null, key: pageState()?.key || "default" };
  };
  const onPop = () => {
    action = "POP";
    listener?.({ action, location: read() });
  };
  const write = (kind: "push" | "replace", to: string, state: unknown) => {
    action = kind === "push" ? "PUSH" : "REPLACE";
    const location = createLocation(read(), to, state);
    const entry: HistoryState = {
      usr: location.state,
      key: location.key,
      idx: (pageState()?.idx ?? 0) + (kind === "push" ? 1 : 0),
    };
    const url = createPath(location);
    if (kind === "replace") page.replaceState(entry, "", url);
    else {
      try {
        page.pushState(entry, "", url);
      } catch (error) {
        // A state the browser cannot copy is the caller's mistake; an entry refused otherwise (Safari limits how
        // many a page adds in a short time) is reached by a page load.
        if (error instanceof DOMException && error.name === "DataCloneError") throw error;
        window.location.assign(url);
      }
    }
    listener?.({ action, location: read() });
  };
  return {
    get action() {
      return action;
    },
    get location() {
      return read();
    },
    push: (to, state) => write("push", to, state),
    replace: (to, state) => write("replace", to, state),
    go: (delta) => page.go(delta),
    listen(next) {
      listener = next;
      window.addEventListener("popstate", onPop);
      return () => {
        window.removeEventListener("popstate", onPop);
        listener = null;
      };
    },
  };
}

function createMemoryHistory(initialEntries: readonly string[]): History {
  const entries = (initialEntries.length ? initialEntries : ["/"]).map((entry, i) =>
    createLocation(undefined, entry, null, i === 0 ? "default" : undefined),
  );
  let index = entries.length - 1;
  let action: NavigationType = "POP";
  let listener: ((update: Update) => void) | null = null;
  const current = () => entries[index] as Location;
  const tell = () => listener?.({ action, location: current() });
  return {
    get action() {
      return action;
    },
    get location() {
      return current();
    },
    push(to, state) {
      action = "PUSH";
      const location = createLocation(current(), to, state);
      index += 1;
      entries.splice(index, entries.length, location);
      tell();
    },
    replace(to, state) {
      action = "REPLACE";
      entries[index] = createLocation(current(), to, state);
      tell();
    },
    go(delta) {
      action = "POP";
      index = Math.min(Math.max(index + delta, 0), entries.length - 1);
      tell();
    },
    listen(next) {
      listener = next;
      return () => {
        listener = null;
      };
    },
  };
}

interface RouterState extends Update {
  navigate: NavigateFunction;
}

const RouterContext = createContext<RouterState | null>(null);

function useRouterState(): RouterState {
  const state = useContext(RouterContext);
  if (!state) throw new Error("routing is used outside the app's router");
  return state;
}

/** wouter's view of the location: the path its routes match, and the way it navigates (its links). */
function useWouterLocation(): [string, (to: string, options?: NavigateOptions) => void] {
  const { location, navigate } = useRouterState();
  return [location.pathname, navigate];
}
useWouterLocation.searchHook = () => useRouterState().location.search;

function HistoryRouter({ history, children }: { history: History; children: ReactNode }) {
  const [update, setUpdate] = useState<Update>(() => ({ action: history.action, location: history.location }));
  useLayoutEffect(() => history.listen((next) => startTransition(() => setUpdate(next))), [history]);
  const navigate = useCallback<NavigateFunction>(
    (to, options = {}) => {
      if (typeof to === "number") history.go(to);
      else if (options.replace) history.replace(to, options.state);
      else history.push(to, options.state);
    },
    [history],
  );
  const value = useMemo(() => ({ ...update, navigate }), [update, navigate]);
  return (
    <RouterContext.Provider value={value}>
      <WouterRouter hook={useWouterLocation} searchHook={useWouterLocation.searchHook}>
        {children}
      </WouterRouter>
    </RouterContext.Provider>
  );
}

/** The page's own address and history; made when it first renders, so after the launch's own address changes. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const [history] = useState(createBrowserHistory);
  return <HistoryRouter history={history}>{children}</HistoryRouter>;
}

/** A history of its own, starting on the last of `initialEntries` (the tests, the build's render). */
export function MemoryRouter({ initialEntries = ["/"], children }: { initialEntries?: string[]; children: ReactNode }) {
  const [history] = useState(() => createMemoryHistory(initialEntries));
  return <HistoryRouter history={history}>{children}</HistoryRouter>;
}

export function useLocation(): Location {
  return useRouterState().location;
}

export function useNavigationType(): NavigationType {
  return useRouterState().action;
}

/** Goes to a path of the app (a new entry unless `replace`), or through the history by a number (-1: back). */
export function useNavigate(): NavigateFunction {
  return useRouterState().navigate;
}

type SearchParamsInit = ConstructorParameters<typeof URLSearchParams>[0];

/** The address's query, and a way to change it on the same path (a new entry unless `replace`). */
export function useSearchParams(): [
  URLSearchParams,
  (next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit), options?: NavigateOptions) => void,
] {
  const { location, navigate } = useRouterState();
  const { pathname, search } = location;
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit), options?: NavigateOptions) => {
      const query = new URLSearchParams(
        typeof next === "function" ? next(new URLSearchParams(params)) : next,
      ).toString();
      navigate(query ? `${pathname}?${query}` : pathname, options);
    },
    [navigate, pathname, params],
  );
  return [params, setParams];
}

/** Sends the user on to `to` once rendered (a guard's redirect). */
export function Navigate({ to, replace, state }: { to: string } & NavigateOptions) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace, state }), [navigate, to, replace, state]);
  return null;
}

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: string } & NavigateOptions;

/**
 * A link inside the app. A plain click navigates in the app, to where the user already is by replacing that entry;
 * a click with a modifier key, another button or another target is the browser's. The link's own `onClick` runs
 * first and may take the click (`preventDefault`).
 */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, state, onClick, target, ...props },
  ref,
) {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <a
      {...props}
      ref={ref}
      href={to}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || event.button !== 0 || (target && target !== "_self")) return;
        if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        navigate(to, { replace: replace ?? createPath(location) === createPath(parsePath(to)), state });
      }}
    />
  );
});
