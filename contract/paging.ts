/** Paged lists: `?page=1&limit=20` in, `{ items, total, page, limit }` out. */
import * as z from "zod/mini";
import { deferred } from "./deferred";

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

/** `page` is 1-based; `limit` 1…100 (20 by default). Query strings are coerced to integers. */
export const PageQuery = deferred(() =>
  z.object({
    page: z._default(z.coerce.number().check(z.int(), z.gte(1)), 1),
    limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_PAGE_LIMIT)), DEFAULT_PAGE_LIMIT),
  }),
);
export type PageQuery = z.infer<typeof PageQuery>;

/** A page of `item`s; `total` counts every item that matches the filters. */
export function pageOf<T extends z.ZodMiniType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.int().check(z.nonnegative()),
    page: z.int().check(z.gte(1)),
    limit: z.int().check(z.gte(1)),
  });
}

/** A date filter: a day (`2026-05-01`) or an instant with offset (`2026-05-01T12:00:00Z`). */
export const DateFilter = deferred(() => z.union([z.iso.date(), z.iso.datetime({ offset: true })]));
