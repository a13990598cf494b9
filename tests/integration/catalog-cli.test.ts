/**
 * The operator writes the catalogue of a production database (no demo seed) with `kassa catalog`: the demo
 * catalogue as a starting file, applied through a running server and on the folder, changes by id, a plan
 * switched off, and files that break a rule refused whole with the field named.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { openDatabase } from "../../server/src/db/client";
import { kassa as kassaIn, serverForCli } from "./cli";
import { callRoute, createTestServer, tempDirForTests } from "./helpers";

const kassa = (args: string[], dataDir: string) => kassaIn(args, { DATA_DIR: dataDir });

const tmp = tempDirForTests();
interface CatalogFile {
  plans: { id: string; maxAmount: string; minAmount: string; active?: boolean }[];
  paymentSystems: { id: string; address: string; minWithdrawal: string; maxWithdrawal: string }[];
  subscriptionOptions: { id: string; price: string }[];
  cryptoCases: { id: string; planIds: string[] }[];
}

/** The entry of `list` with `id` (the first without one); a missing one fails the test. */
function entry<T extends { id: string }>(list: T[], id?: string): T {
  const found = id === undefined ? list[0] : list.find((e) => e.id === id);
  if (!found) throw new Error(`no catalogue entry ${id ?? "at all"}`);
  return found;
}

it("fills an empty catalogue from a file, changes it by id and refuses a broken file whole", async () => {
  const dataDir = path.join(tmp.dir, "pglite");
  const file = path.join(tmp.dir, "catalog.json");
  const { server, close } = await serverForCli(dataDir, { seed: false });
  let shown: string;
  try {
    // A production database: nothing to offer until the operator writes it.
    expect(await callRoute(server, "plansAvailable")).toEqual([]);
    const empty = await kassa(["catalog", "show"], dataDir);
    expect(empty.code).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual({
      plans: [],
      paymentSystems: [],
      subscriptionOptions: [],
      cryptoCases: [],
    });

    const example = await kassa(["catalog", "example"], dataDir);
    expect(example.code).toBe(0);
    writeFileSync(file, example.stdout);
    const applied = await kassa(["catalog", "apply", file], dataDir);
    expect(applied).toMatchObject({ code: 0 });
    expect(applied.stdout).toContain("plans: added start, standard, premium; changed none; unchanged none");
    expect(applied.stderr).toContain("the running server");
    expect((await callRoute(server, "plansAvailable")).map((p) => p.id)).toEqual(["start", "standard", "premium"]);
    expect((await callRoute(server, "paymentSystems")).map((s) => s.id)).toContain("btc");
    expect((await callRoute(server, "subscriptionOptions")).map((o) => o.id)).toEqual(["month", "year"]);

    // The same file again changes nothing.
    const again = await kassa(["catalog", "apply", file], dataDir);
    expect(again.stdout).toContain("plans: added none; changed none; unchanged start, standard, premium");

    // A broken file: a plan whose maximum is below its minimum, a deposit address its own pattern refuses,
    // a case naming a plan nobody has. Refused whole, each field named; nothing written.
    shown = (await kassa(["catalog", "show"], dataDir)).stdout;
    const broken = JSON.parse(example.stdout) as CatalogFile;
    Object.assign(entry(broken.plans), { maxAmount: "1", minAmount: "5" });
    Object.assign(entry(broken.paymentSystems), { address: "not-an-address" });
    Object.assign(entry(broken.cryptoCases), { planIds: ["gold"] });
    Object.assign(entry(broken.subscriptionOptions), { price: "1.0000000000000000001" });
    writeFileSync(file, JSON.stringify(broken));
    const refused = await kassa(["catalog", "apply", file], dataDir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('"plans.0.maxAmount":"amountBelowMinimum"');
    expect(refused.stderr).toContain('"paymentSystems.0.address":"addressFormat"');
    expect(refused.stderr).toContain('"cryptoCases.0.planIds.0":"required"');
    expect(refused.stderr).toContain('"subscriptionOptions.0.price":"tooManyDecimals"');
    expect((await kassa(["catalog", "show"], dataDir)).stdout).toBe(shown);
  } finally {
    await close();
  }

  // No server: the CLI opens the folder itself. Premium switched off, Start's maximum raised, only the plans
  // given: the other sections stay, and a plan left out of the file is named and kept.
  const catalog = JSON.parse(shown) as CatalogFile;
  const plansOnly = {
    plans: [
      { ...entry(catalog.plans, "start"), maxAmount: "2500" },
      { ...entry(catalog.plans, "premium"), active: false },
    ],
  };
  writeFileSync(file, JSON.stringify(plansOnly));
  const changed = await kassa(["catalog", "apply", file], dataDir);
  expect(changed).toMatchObject({ code: 0 });
  expect(changed.stdout).toContain("plans: added none; changed start, premium; unchanged none");
  expect(changed.stdout).toContain("not in the file, left as they are: standard");
  expect(changed.stdout).not.toContain("paymentSystems");

  // A file that is not a catalogue at all: the path of each problem, nothing written.
  writeFileSync(file, JSON.stringify({ plans: [{ ...entry(catalog.plans), currency: "DOGE" }] }));
  const wrongShape = await kassa(["catalog", "apply", file], dataDir);
  expect(wrongShape.code).not.toBe(0);
  expect(wrongShape.stderr).toMatch(/is not a catalogue:\n {2}plans\.0\.currency/);
  writeFileSync(file, "{ not json");
  expect((await kassa(["catalog", "apply", file], dataDir)).stderr).toContain("is not JSON");

  const reopened = await openDatabase({ dataDir });
  const after = await createTestServer({ handle: reopened, seed: false });
  try {
    const plans = await callRoute(after, "plansAvailable");
    expect(plans.map((p) => p.id)).toEqual(["start", "standard"]);
    expect(plans.find((p) => p.id === "start")?.maxAmount).toBe("2500");
    expect((await callRoute(after, "subscriptionOptions")).map((o) => o.id)).toEqual(["month", "year"]);
  } finally {
    await after.close();
    await reopened.close();
  }
});
