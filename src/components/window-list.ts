/**
 * Long lists over the window's scroll, virtualised (`@tanstack/react-virtual`): only the rows on the screen and
 * `overscan` either side are in the document, however many are loaded — the partners list, the operations
 * history, the notification inbox. `useWindowList` sets the virtualizer up the same way for each (where the list
 * starts in the page, rows measured as laid out, the row that has the focus kept in the document while it is
 * scrolled away); `usePagesBuilt` builds a list's rows from an infinite query's pages a page at a time.
 */
import { defaultRangeExtractor, type Range, useWindowVirtualizer, type VirtualItem } from "@tanstack/react-virtual";
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import "./window-list.css";

export interface WindowListOptions {
  count: number;
  /** A row's height before it is laid out (also what a row that has no layout, as in jsdom, keeps). */
  estimateSize(index: number): number;
  /** A row's identity across pages and refetches (its measured height goes with it). */
  getItemKey(index: number): string | number;
  /** Rows rendered beyond each edge of the screen. */
  overscan?: number;
}

export interface WindowList<E extends HTMLElement = HTMLElement> {
  virtualizer: ReturnType<typeof useWindowVirtualizer<HTMLElement>>;
  /** The rows to render, in order (the screen's, the overscan's and the focused one). */
  items: VirtualItem[];
  /**
   * On the list's element: where its box is in the page; a row that takes the focus in it stays rendered while
   * it is scrolled away.
   */
  listRef: RefObject<E | null>;
  /** On each rendered row's element, with `data-index`: its laid-out height becomes the row's. */
  measure(element: HTMLElement | null): void;
  /** Where row `index` starts and ends, in pixels from the top of the list's box. */
  startOf(index: number): number;
  endOf(index: number): number;
  /** The height of every row together: the list's box. */
  totalSize: number;
}

export function useWindowList<E extends HTMLElement = HTMLDivElement>({
  count,
  estimateSize,
  getItemKey,
  overscan = 8,
}: WindowListOptions): WindowList<E> {
  const listRef = useRef<E>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // Where the list starts in the document; what is above it (filters, totals) may still grow.
  useLayoutEffect(() => {
    const measure = () => {
      const top = (listRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
      setScrollMargin((previous) => (Math.abs(previous - top) < 1 ? previous : top));
    };
    measure();
    const observer = typeof ResizeObserver === "function" ? new ResizeObserver(measure) : null;
    observer?.observe(document.body);
    return () => observer?.disconnect();
  }, []);

  // The row last focused (by Tab or a tap): kept in the document, so the focus is not lost when it scrolls away.
  const [focused, setFocused] = useState<number | null>(null);
  const focusedIndex = focused !== null && focused < count ? focused : null;
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (focusedIndex === null || indexes.includes(focusedIndex)) return indexes;
      return [...indexes, focusedIndex].sort((a, b) => a - b);
    },
    [focusedIndex],
  );

  const virtualizer = useWindowVirtualizer<HTMLElement>({
    count,
    estimateSize,
    getItemKey,
    // A row's height from its resize observer, after layout. When a row mounts (its ref) it keeps the height known
    // for it, or the estimate, until the observer reports: reading it there would lay the page out in the middle
    // of React's commit, once a tap. A row not laid out (no height) keeps the estimate, so zero heights never pull
    // in every row at once.
    measureElement: (element, entry, instance) => {
      const index = instance.indexFromElement(element);
      const height = entry?.borderBoxSize?.[0]?.blockSize;
      if (height !== undefined) return height || estimateSize(index);
      return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? estimateSize(index);
    },
    overscan,
    scrollMargin,
    rangeExtractor,
    // A change of the range or of a row's measured height renders the list again in React's own batch, not at
    // once inside `flushSync` for each row measured (a new page's rows measured one by one rendered the list
    // again each time: most of a "Show more" tap's script at 1,000 rows).
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  // `getVirtualItems` may be shifted from the measurements while the virtualizer holds a scroll correction:
  // positions of rows not rendered are read from the measurements with the same shift.
  const first = items[0];
  const shift = first ? (virtualizer.measurementsCache[first.index]?.start ?? first.start) - first.start : 0;
  const startOf = (index: number) => (virtualizer.measurementsCache[index]?.start ?? 0) - shift - scrollMargin;
  const endOf = (index: number) => (virtualizer.measurementsCache[index]?.end ?? 0) - shift - scrollMargin;

  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const onFocusIn = (event: FocusEvent) => {
      const row = (event.target as Element | null)?.closest("[data-index]");
      if (row && list.contains(row)) setFocused(Number(row.getAttribute("data-index")));
    };
    list.addEventListener("focusin", onFocusIn);
    return () => list.removeEventListener("focusin", onFocusIn);
  }, []);

  return {
    virtualizer,
    items,
    listRef,
    measure: virtualizer.measureElement,
    startOf,
    endOf,
    totalSize: virtualizer.getTotalSize(),
  };
}

/**
 * What an infinite query's pages make (the rows of a list, grouped as it shows them), built a page at a time:
 * while the pages only grow ("Show more"), each new page is added to what the earlier ones built, which is not
 * gone through again; any other change (a refetch, another filter) builds from the first page. `add` may extend
 * `built` in place (the query's new data renders the list again) and returns what to show.
 */
export function usePagesBuilt<P, B>(pages: readonly P[] | undefined, start: () => B, add: (built: B, page: P) => B): B {
  const memo = useRef<{ pages: readonly P[]; built: B } | null>(null);
  const list = pages ?? [];
  const previous = memo.current;
  if (previous && previous.pages === list) return previous.built;
  const grows =
    previous !== null && previous.pages.length <= list.length && previous.pages.every((page, i) => page === list[i]);
  let built = grows ? previous.built : start();
  for (const page of list.slice(grows ? previous.pages.length : 0)) built = add(built, page);
  memo.current = { pages: list, built };
  return built;
}
