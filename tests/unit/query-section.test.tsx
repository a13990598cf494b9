/** The one place for remote data's states: loading, error with Try again, empty or no match, stale, load more. */
import { QueryClient, QueryClientProvider, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { AppRoot } from "@telegram-apps/telegram-ui";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { type ComponentProps, type ReactNode, useState } from "react";
import { describe, expect, it } from "vitest";
import { useAheadItems, useAheadPages } from "@/components/ahead-pages";
import { PagedList, QuerySection } from "@/components/query-section";
import { ensureI18n } from "./test-utils";

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return {
    client,
    ...render(
      <QueryClientProvider client={client}>
        <AppRoot>{children}</AppRoot>
      </QueryClientProvider>,
    ),
  };
}

const server = { calls: 0, fail: true };

function OneQuery() {
  const query = useQuery({
    queryKey: ["probe"],
    queryFn: async () => {
      server.calls += 1;
      if (server.fail) throw new Error("down");
      return ["a", "b"];
    },
  });
  return (
    <QuerySection query={query} empty="Nothing yet">
      {(rows) => <p data-testid="rows">{rows.join(",")}</p>}
    </QuerySection>
  );
}

/** The paged list of rows both lists below show, each row a paragraph. */
function Rows({
  query,
  items,
  filtered,
}: Pick<ComponentProps<typeof PagedList<string>>, "query" | "items" | "filtered">) {
  return (
    <PagedList
      query={query}
      items={items}
      empty="No rows yet"
      filtered={filtered}
      noMatch="No rows match"
      loadMore="More"
      renderItem={(row) => (
        <p key={row} data-testid="row">
          {row}
        </p>
      )}
    />
  );
}

/** Pages asked for by the list, by page number. */
const pageCalls: number[] = [];

function Paged({ filtered, total }: { filtered: boolean; total: number }) {
  const query = useAheadPages(
    useInfiniteQuery({
      queryKey: ["paged", total],
      initialPageParam: 0,
      queryFn: async ({ pageParam }) => {
        pageCalls.push(pageParam);
        return Array.from(
          { length: Math.max(0, Math.min(2, total - pageParam * 2)) },
          (_, i) => `row${pageParam * 2 + i}`,
        );
      },
      getNextPageParam: (last, pages) => (pages.length * 2 < total && last.length ? pages.length : undefined),
    }),
  );
  const items = query.data?.pages.flat() ?? [];
  return <Rows query={query} items={items} filtered={filtered} />;
}

describe("QuerySection", () => {
  it("shows the error with Try again, then the data once the retry succeeds, and the stale mark when a refresh fails", async () => {
    await ensureI18n();
    const { client } = wrap(<OneQuery />);
    expect(screen.getByTestId("loading")).toBeTruthy();
    await screen.findByTestId("query-error");
    server.fail = false;
    fireEvent.click(screen.getByText("Try again"));
    expect((await screen.findByTestId("rows")).textContent).toBe("a,b");
    server.fail = true;
    await act(() => client.refetchQueries({ queryKey: ["probe"] }).catch(() => undefined));
    await screen.findByTestId("stale");
    expect(screen.getByTestId("rows").textContent).toBe("a,b");
    expect(server.calls).toBe(3);
  });
});

describe("PagedList", () => {
  it("says 'no match' only while a filter is on, and loads the next page on demand", async () => {
    await ensureI18n();
    const empty = wrap(<Paged filtered={false} total={0} />);
    expect((await screen.findByTestId("list-empty")).textContent).toBe("No rows yet");
    empty.unmount();
    const matchless = wrap(<Paged filtered total={0} />);
    expect((await screen.findByTestId("list-no-match")).textContent).toBe("No rows match");
    matchless.unmount();

    wrap(<Paged filtered={false} total={3} />);
    await waitFor(() => expect(screen.getAllByTestId("row")).toHaveLength(2));
    fireEvent.click(screen.getByTestId("load-more"));
    await waitFor(() => expect(screen.getAllByTestId("row")).toHaveLength(3));
    expect(screen.queryByTestId("load-more")).toBeNull();
  });

  it("fetches the next page ahead while the shown ones are read, and shows it at once on 'Show more'", async () => {
    await ensureI18n();
    pageCalls.length = 0;
    wrap(<Paged filtered={false} total={5} />);
    // The first page shown, the second fetched ahead but held back.
    await waitFor(() => expect(pageCalls).toEqual([0, 1]));
    expect(screen.getAllByTestId("row")).toHaveLength(2);
    // The tap shows it in the same render: no request waited for. The third is then fetched ahead.
    fireEvent.click(screen.getByTestId("load-more"));
    expect(screen.getAllByTestId("row")).toHaveLength(4);
    await waitFor(() => expect(pageCalls).toEqual([0, 1, 2]));
    fireEvent.click(screen.getByTestId("load-more"));
    expect(screen.getAllByTestId("row")).toHaveLength(5);
    expect(screen.queryByTestId("load-more")).toBeNull();
    // Nothing past the end is asked for.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(pageCalls).toEqual([0, 1, 2]);
  });
});

/** Every `items` array the list below rendered with, in order, and the pages it asked for. */
const itemsSeen: string[][] = [];
const itemPageCalls: number[] = [];

/** A list whose pages hold `items`, as the app's replies do, and a button that re-renders it with nothing new. */
function PagedItems() {
  const [, setTicks] = useState(0);
  const { list, items } = useAheadItems(
    useInfiniteQuery({
      queryKey: ["paged-items"],
      initialPageParam: 0,
      queryFn: async ({ pageParam }) => {
        itemPageCalls.push(pageParam);
        return { items: [`row${pageParam * 2}`, `row${pageParam * 2 + 1}`] };
      },
      getNextPageParam: (_last, pages) => (pages.length < 3 ? pages.length : undefined),
    }),
  );
  itemsSeen.push(items);
  return (
    <>
      <button type="button" data-testid="rerender" onClick={() => setTicks((n) => n + 1)} />
      <Rows query={list} items={items} filtered={false} />
    </>
  );
}

describe("useAheadItems", () => {
  it("gives the shown pages' items in order, the same array until the pages shown change", async () => {
    await ensureI18n();
    itemsSeen.length = 0;
    itemPageCalls.length = 0;
    wrap(<PagedItems />);
    await waitFor(() => expect(screen.getAllByTestId("row").map((row) => row.textContent)).toEqual(["row0", "row1"]));
    // The page fetched ahead is held back from the items as from the rows.
    await waitFor(() => expect(itemPageCalls).toEqual([0, 1]));
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    const shown = itemsSeen.at(-1);
    expect(shown).toEqual(["row0", "row1"]);
    fireEvent.click(screen.getByTestId("rerender"));
    expect(itemsSeen.at(-1)).toBe(shown);
    fireEvent.click(screen.getByTestId("load-more"));
    await waitFor(() => expect(itemsSeen.at(-1)).toEqual(["row0", "row1", "row2", "row3"]));
    expect(itemsSeen.at(-1)).not.toBe(shown);
  });
});
