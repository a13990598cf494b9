/**
 * The caps on a user's waiting applications hold when the requests come all at once: they are
 * counted in the transaction that adds the row, under the user's row lock. 30 withdrawal
 * requests → 5 awaiting a code; 30 refills → 20 waiting; 10 verification requests → 1 in
 * process. On PGlite, and on PostgreSQL (where requests really run in parallel) when
 * TEST_DATABASE_URL is set.
 * Rerun: TEST_DATABASE_URL=postgres://… npx vitest run --project integration tests/integration/caps-concurrency.test.ts
 */

import { routes } from "@contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { openDatabase } from "../../server/src/db/client";
import { openDeposit } from "../../server/src/services/deposits";
import { MAX_WAITING_REFILLS } from "../../server/src/services/refills";
import { MAX_AWAITING_WITHDRAWALS } from "../../server/src/services/withdrawals";
import { createTestServer, injectRoute, type TestServer, tempDir } from "./helpers";
import {
  expectLedgerConsistent,
  freshPostgres,
  fund,
  newInvestor,
  POSTGRES_SKIP_REASON,
  saveWallets,
  TEST_DATABASE_URL,
  TRC20_WALLET,
} from "./money";
import { tinyJpeg } from "./multipart";

const clock = systemClock;

function verificationForm(): { payload: Buffer; contentType: string } {
  const boundary = "----kassacaps";
  const fields = {
    fullName: "Aigerim Sadykova",
    dateOfBirth: "1990-04-12",
    familyStatus: "married",
    documentNumber: "N1234567",
  };
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const name of ["documentPhoto", "loginPhoto", "walletPhoto"]) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      tinyJpeg(),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function capsHold(server: TestServer, backend: string) {
  const db = server.handle.db;

  // Withdrawals: 30 at once, enough money for all of them.
  const saver = await newInvestor(db, clock);
  await saveWallets(server, saver, [{ paymentSystemId: "usdt-trc20", address: TRC20_WALLET }]);
  await fund(db, clock, saver.id, "USDT", "5000");
  await openDeposit({ db, clock }, saver.id, { planId: "start", currency: "USDT", amount: "100", autoInvest: false });
  const withdrawals = await Promise.all(
    Array.from({ length: 30 }, () =>
      injectRoute(server, routes.requestWithdrawal, {
        token: saver.token,
        body: { paymentSystemId: "usdt-trc20", amount: "20" },
      }),
    ),
  );
  const accepted = withdrawals.filter((r) => r.status === 200).length;
  const limited = withdrawals.filter((r) => r.status === 429).length;
  console.log(`[kassa] ${backend}: 30 withdrawal requests at once → ${accepted} awaiting a code, ${limited} × 429`);
  expect(accepted).toBe(MAX_AWAITING_WITHDRAWALS);
  expect(limited).toBe(30 - MAX_AWAITING_WITHDRAWALS);
  await expectLedgerConsistent(db);

  // Refills: 30 at once.
  const refiller = await newInvestor(db, clock);
  const refills = await Promise.all(
    Array.from({ length: 30 }, () =>
      injectRoute(server, routes.createRefill, {
        token: refiller.token,
        body: { paymentSystemId: "usdt-trc20", amount: "10" },
      }),
    ),
  );
  const waiting = refills.filter((r) => r.status === 200).length;
  console.log(`[kassa] ${backend}: 30 refills at once → ${waiting} waiting`);
  expect(waiting).toBe(MAX_WAITING_REFILLS);
  expect(refills.filter((r) => r.status === 429)).toHaveLength(30 - MAX_WAITING_REFILLS);

  // Verification: 10 at once.
  const applicant = await newInvestor(db, clock);
  const form = verificationForm();
  const verifications = await Promise.all(
    Array.from({ length: 10 }, () =>
      server.app.inject({
        method: "PATCH",
        url: "/api/user-data/verification",
        payload: form.payload,
        headers: { authorization: `Bearer ${applicant.token}`, "content-type": form.contentType },
      }),
    ),
  );
  const inProcess = verifications.filter((r) => r.statusCode === 200).length;
  console.log(`[kassa] ${backend}: 10 verification requests at once → ${inProcess} in process`);
  expect(inProcess).toBe(1);
  for (const refused of verifications.filter((r) => r.statusCode !== 200)) {
    expect(refused.json()).toMatchObject({ code: "VERIFICATION_REQUEST_FAILED", params: { reason: "in_process" } });
  }
}

const uploads = tempDir();
afterAll(() => uploads.remove());

describe("caps under concurrency", () => {
  it("hold on PGlite", async () => {
    const server = await createTestServer({ clock, env: { UPLOAD_DIR: uploads.dir } });
    try {
      await capsHold(server, "PGlite");
    } finally {
      await server.close();
    }
  });

  describe.skipIf(!TEST_DATABASE_URL)(
    `on PostgreSQL (${TEST_DATABASE_URL ? "TEST_DATABASE_URL" : POSTGRES_SKIP_REASON})`,
    () => {
      let pg: Awaited<ReturnType<typeof freshPostgres>>;
      let server: TestServer;
      beforeAll(async () => {
        pg = await freshPostgres("caps");
        server = await createTestServer({
          clock,
          handle: await openDatabase({ databaseUrl: pg.url }),
          env: { UPLOAD_DIR: uploads.dir },
        });
      });
      afterAll(async () => {
        await server?.close();
        await server?.handle.close();
        await pg?.drop();
      });

      it("hold", async () => {
        await capsHold(server, "PostgreSQL");
      });
    },
  );
});
