import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/api-client";
import { createQueryClient, QUERY_GC_TIME_MS } from "@/lib/query-client";

describe("query client (the limits of the cabinet rules)", () => {
  it("drops unused results after 60 s and never refetches on window focus", () => {
    expect(QUERY_GC_TIME_MS).toBe(60_000);
    const defaults = createQueryClient().getDefaultOptions().queries;
    expect(defaults?.gcTime).toBe(60_000);
    expect(defaults?.refetchOnWindowFocus).toBe(false);
  });

  it("does not retry what the server refused (4xx), does retry failures", () => {
    const retry = createQueryClient().getDefaultOptions().queries?.retry as (n: number, e: Error) => boolean;
    expect(retry(0, new ApiError({ kind: "http", status: 404, message: "" }))).toBe(false);
    expect(retry(0, new ApiError({ kind: "http", status: 503, message: "" }))).toBe(true);
    expect(retry(0, new ApiError({ kind: "network", message: "" }))).toBe(true);
    expect(retry(2, new ApiError({ kind: "network", message: "" }))).toBe(false);
  });

  it("after a mutation succeeds, invalidates every query key listed in meta.invalidates", async () => {
    const client = createQueryClient();
    const invalidate = vi.spyOn(client, "invalidateQueries");
    await client
      .getMutationCache()
      .build(client, {
        mutationFn: async () => "done",
        meta: { invalidates: [["balance"], ["deposits", "list"]] },
      })
      .execute(undefined);
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([["balance"], ["deposits", "list"]]);
  });

  it("invalidates nothing for a mutation that lists nothing", async () => {
    const client = createQueryClient();
    const invalidate = vi.spyOn(client, "invalidateQueries");
    await client
      .getMutationCache()
      .build(client, { mutationFn: async () => 1 })
      .execute(undefined);
    expect(invalidate).not.toHaveBeenCalled();
  });
});
