/**
 * The CLI's typed operator client (`httpOperator`, built from contract/operator.ts) against a real
 * listening server: replies parsed by the contract's schemas, a refused token, a missing refill and
 * an unknown setting key turned into the operator's messages.
 */
import { expect, it } from "vitest";
import { httpOperator } from "../../server/src/cli/operator";
import { createTestServer, TEST_OPERATOR_TOKEN } from "./helpers";

it("sends the contract's operator calls and parses their replies", async () => {
  const server = await createTestServer({ seed: false });
  try {
    const url = await server.app.listen({ port: 0, host: "127.0.0.1" });
    const op = httpOperator(url, TEST_OPERATOR_TOKEN);
    expect(await op.listRefills({ status: "waiting", limit: 5 })).toEqual([]);
    expect((await op.maintenance({ enabled: true })).enabled).toBe(true);
    expect(await op.getSetting("technicalWork")).toMatchObject({ enabled: true });
    expect((await op.maintenance({ enabled: false })).enabled).toBe(false);
    expect(await op.setSetting("referralLines", ["5", "2"])).toEqual(["5", "2"]);
    expect(await op.auditLedger()).toEqual([]);
    expect((await op.clock()).offsetSeconds).toBe(0);
    expect(Array.isArray(await op.listNews())).toBe(true);
    await expect(op.confirmRefill("00000000-0000-0000-0000-000000000000")).rejects.toThrow(
      "no refill 00000000-0000-0000-0000-000000000000",
    );
    await expect(httpOperator(url, "wrong-token-xxxxxxxx").listRefills({})).rejects.toThrow(
      /refused the operator token/,
    );
    await expect(op.getSetting("nope" as never)).rejects.toThrow(/VALIDATION_FAILED/);
  } finally {
    await server.close();
  }
}, 300_000);
