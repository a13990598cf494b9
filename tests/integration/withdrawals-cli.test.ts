/** The real operator CLI moving withdrawals through a listening server that holds the PGlite folder. */
import path from "node:path";
import { WithdrawalRequestReply } from "@contract";
import { expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { openDeposit } from "../../server/src/services/deposits";
import { kassa as kassaIn, serverForCli } from "./cli";
import { callRoute, lastCode, tempDirForTests } from "./helpers";
import { balanceOf, expectLedgerConsistent, fund, newInvestor, saveWallets } from "./money";

const kassa = (args: string[], dataDir: string) => kassaIn(args, { DATA_DIR: dataDir });

const tmp = tempDirForTests();
it("lists, inspects, pays and rejects withdrawals through the running server", async () => {
  const dataDir = path.join(tmp.dir, "pglite");
  const { server, handle, close } = await serverForCli(dataDir);
  try {
    const db = handle.db;
    const investor = await newInvestor(db, systemClock);
    await saveWallets(server, investor, [
      { paymentSystemId: "ton", address: "UQOCX54f-k-0H-0Ng9fPd0hmx2mrCiI0kX1Ul0icVKV6QGBE" },
    ]);
    await fund(db, systemClock, investor.id, "USDT", "100");
    await openDeposit({ db, clock: systemClock }, investor.id, {
      planId: "start",
      currency: "USDT",
      amount: "100",
      autoInvest: false,
    });
    await fund(db, systemClock, investor.id, "TON", "100");
    const ids: string[] = [];
    for (const amount of ["40", "50"]) {
      const res = await callRoute(server, "createWithdrawal", {
        token: investor.token,
        body: { paymentSystemId: "ton", amount },
      });
      const reply = WithdrawalRequestReply.parse(res);
      const code = await lastCode(server, investor.login, "withdrawal");
      await callRoute(server, "validateWithdrawal", {
        token: investor.token,
        body: { withdrawalId: reply.withdrawal.id, code },
      });
      ids.push(reply.withdrawal.id);
    }
    const [paid, rejected] = ids as [string, string];

    const list = await kassa(["withdrawal", "list", "--status", "pending"], dataDir);
    expect(list.stderr).toMatch(/^kassa: acting on the running server \(pid \d+\) at http:\/\/127\.0\.0\.1:\d+\n$/);
    expect(list.stdout).toContain(paid);
    expect(list.stdout).toContain(investor.login);
    const inspect = await kassa(["withdrawal", "inspect", paid], dataDir);
    expect(inspect.stdout).toContain(`Withdrawal ${paid} is on_inspection (via the running server`);
    const success = await kassa(["withdrawal", "success", paid, "--tx", "ab12cd34ef56ab78"], dataDir);
    expect(success.stdout).toContain("is success");
    expect(success.stdout).toContain("tx ab12cd34ef56ab78");
    const reject = await kassa(["withdrawal", "reject", rejected, "--note", "test"], dataDir);
    expect(reject.stdout).toContain("is rejected");
    const twice = await kassa(["withdrawal", "error", rejected], dataDir);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("UPDATE_FAILED");
    expect((await balanceOf(server, investor)).TON).toBe("60");
    await expectLedgerConsistent(db);
  } finally {
    await close();
  }
});
