/**
 * The rows of an infinite query's pages built a page at a time (components/window-list.ts): "Show more" adds
 * the new page's rows and goes through none of the earlier ones again; a refetch or another filter builds anew.
 */
import { renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { usePagesBuilt } from "@/components/window-list";
import { addToHistory, emptyHistory } from "@/features/operations/model/day-groups";

describe("pages built a page at a time", () => {
  it("adds only a new page while the pages grow; builds anew when an earlier one changes", () => {
    const added: string[][] = [];
    const { result, rerender } = renderHook(
      ({ pages }: { pages: string[][] | undefined }) =>
        usePagesBuilt(
          pages,
          (): string[] => [],
          (built, page) => {
            added.push(page);
            built.push(...page);
            return built;
          },
        ),
      { initialProps: { pages: undefined as string[][] | undefined } },
    );
    expect(result.current).toEqual([]);
    const first = ["a", "b"];
    const second = ["c"];
    rerender({ pages: [first] });
    rerender({ pages: [first, second] });
    expect(result.current).toEqual(["a", "b", "c"]);
    expect(added).toEqual([first, second]);
    // The same pages again (another render): nothing added.
    rerender({ pages: [first, second] });
    expect(added).toHaveLength(2);
    // The first page refetched with another row: everything again, from the first page.
    const refetched = ["z", "a"];
    rerender({ pages: [refetched, second] });
    expect(result.current).toEqual(["z", "a", "c"]);
    expect(added).toEqual([first, second, refetched, second]);
  });

  it("groups the history by day across pages: a day that goes on in the next page keeps one heading", () => {
    const op = (id: string, createdAt: string) =>
      ({ id, type: "accrual", currency: "USDT", amount: "1", createdAt }) as const;
    const day = (d: number, hour: number) => new Date(2026, 2, d, hour).toISOString();
    let history = addToHistory(emptyHistory(), [op("o5", day(3, 20)), op("o4", day(3, 10))]);
    history = addToHistory(history, [op("o3", day(3, 1)), op("o2", day(2, 12)), op("o1", day(1, 12))]);
    expect(history.lines.map((line) => (line.kind === "day" ? `day ${line.day}` : line.operation.id))).toEqual([
      "day 0",
      "o5",
      "o4",
      "o3",
      "day 1",
      "o2",
      "day 2",
      "o1",
    ]);
    expect(history.days.map(({ day, first, last, operations }) => [day, first, last, operations])).toEqual([
      ["2026-03-03", 0, 3, 3],
      ["2026-03-02", 4, 5, 1],
      ["2026-03-01", 6, 7, 1],
    ]);
  });
});
