/**
 * A body nested thousands of levels deep is refused with 400 before anything walks it: sent with an
 * Idempotency-Key to a money POST it once overflowed the stack in the key's fingerprint (a 500, in
 * production too). Every idempotent route of the contract is tried; ordinary bodies still pass.
 */
import { type RouteDef, routes } from "@contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { MAX_BODY_DEPTH } from "../../server/src/security/body-depth";
import { createTestServer, type TestServer } from "./helpers";
import { type Investor, newInvestor } from "./money";

const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${"}".repeat(levels - 1)}`;
const IDEMPOTENT = Object.entries(routes).filter(([, def]) => "idempotent" in def && def.idempotent) as [
  string,
  RouteDef,
][];

describe("deep bodies", () => {
  let server: TestServer;
  let investor: Investor;

  beforeAll(async () => {
    server = await createTestServer();
    investor = await newInvestor(server.handle.db, systemClock);
  });

  afterAll(async () => {
    await server?.close();
  });

  const post = (url: string, payload: string, key?: string) =>
    server.app.inject({
      method: "POST",
      url: `/api${url}`,
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${investor.token}`,
        ...(key ? { "idempotency-key": key } : {}),
      },
      payload,
    });

  it("the contract has money POSTs under an idempotency key to try", () => {
    expect(IDEMPOTENT.map(([name]) => name)).toEqual(expect.arrayContaining(["createRefill", "createDeposit"]));
  });

  for (const [name, def] of IDEMPOTENT) {
    it(`${name}: 4,000 levels with an idempotency key answer 400 VALIDATION_FAILED, not 500`, async () => {
      const url = def.path.replace(/:([a-zA-Z]+)/g, "00000000-0000-4000-8000-000000000000");
      const res = await post(url, nested(4_000), `deep-${name}-0001`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    });
  }

  it(`refuses one level past ${MAX_BODY_DEPTH} and reads the body at ${MAX_BODY_DEPTH}`, async () => {
    // An extra field nested to the limit is only an unknown field: the refill goes through.
    const atLimit = JSON.parse(`{"paymentSystemId":"usdt-trc20","amount":"10","x":${nested(MAX_BODY_DEPTH - 1)}}`);
    const ok = await post("/funds/refills", JSON.stringify(atLimit), "deep-at-limit-0001");
    expect(ok.statusCode).toBe(200);
    const over = JSON.parse(`{"paymentSystemId":"usdt-trc20","amount":"10","x":${nested(MAX_BODY_DEPTH)}}`);
    const refused = await post("/funds/refills", JSON.stringify(over), "deep-over-limit-0001");
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: "VALIDATION_FAILED" });
  });
});
