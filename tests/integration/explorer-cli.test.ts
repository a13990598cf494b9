/** The operator sets each payment system's block explorer: the real CLI through a running server and on the folder. */
import path from "node:path";
import { explorerLink } from "@contract";
import { expect, it } from "vitest";
import { openDatabase } from "../../server/src/db/client";
import { kassa as kassaIn, serverForCli } from "./cli";
import { callRoute, createTestServer, tempDirForTests } from "./helpers";

const kassa = (args: string[], dataDir: string) => kassaIn(args, { DATA_DIR: dataDir });

const tmp = tempDirForTests();
it("sets and removes a payment system's explorer, refusing an unknown system and a bad template", async () => {
  const dataDir = path.join(tmp.dir, "pglite");
  const { server, close } = await serverForCli(dataDir);
  try {
    const set = await kassa(["explorer", "set", "btc", "https://blockstream.info/tx/{tx}"], dataDir);
    expect(set).toMatchObject({ code: 0 });
    expect(set.stdout).toContain("btc: transactions link to https://blockstream.info/tx/{tx}");
    const btc = (await callRoute(server, "paymentSystems")).find((s) => s.id === "btc");
    expect(explorerLink(btc?.explorerUrl, "f00d")).toBe("https://blockstream.info/tx/f00d");

    const unknown = await kassa(["explorer", "set", "dogecoin", "https://x.example/{tx}"], dataDir);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("no payment system dogecoin");
    const plain = await kassa(["explorer", "set", "btc", "http://blockstream.info/tx/{tx}"], dataDir);
    expect(plain.code).not.toBe(0);
    const noHash = await kassa(["explorer", "set", "btc", "https://blockstream.info/tx/"], dataDir);
    expect(noHash.code).not.toBe(0);
    expect((await callRoute(server, "paymentSystems")).find((s) => s.id === "btc")?.explorerUrl).toBe(
      "https://blockstream.info/tx/{tx}",
    );

    expect(await kassa(["explorer", "remove", "usdt-trc20"], dataDir)).toMatchObject({ code: 0 });
    const systems = await callRoute(server, "paymentSystems");
    expect(systems.find((s) => s.id === "usdt-trc20")?.explorerUrl).toBeNull();
    expect(systems.find((s) => s.id === "btc")?.explorerUrl).toBe("https://blockstream.info/tx/{tx}");
  } finally {
    await close();
  }

  // No server: the CLI opens the folder itself.
  const direct = await kassa(["explorer", "set", "ton", "https://tonscan.org/tx/{tx}"], dataDir);
  expect(direct).toMatchObject({ code: 0 });
  expect((await kassa(["explorer", "set", "dogecoin", "https://x.example/{tx}"], dataDir)).code).not.toBe(0);
  const reopened = await openDatabase({ dataDir });
  const again = await createTestServer({ handle: reopened });
  try {
    expect((await callRoute(again, "paymentSystems")).find((s) => s.id === "ton")?.explorerUrl).toBe(
      "https://tonscan.org/tx/{tx}",
    );
  } finally {
    await again.close();
    await reopened.close();
  }
});
