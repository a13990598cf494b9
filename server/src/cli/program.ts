/**
 * The operator's command line (docs/decisions.md#d6-operator): `npm run kassa -- <command>`; `index.ts` runs it.
 * It reads the same environment as the server (DATA_DIR, DATABASE_URL, …) and works whether or
 * not the server runs; see server/README.md.
 */

import { readFileSync } from "node:fs";
import {
  LANGUAGES,
  type Language,
  NonNegativeDecimal,
  REFILL_STATUSES,
  type RefillStatus,
  VERIFICATION_STATUSES,
  type VerificationStatus,
} from "@contract";
import { Catalog, WITHDRAWAL_ROW_STATUSES, type WithdrawalRowStatus } from "@contract/operator";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { DEMO_CATALOG } from "../demo/catalog";
import { EnvError, loadEnv } from "../env";
import { isSettingKey, SETTING_KEYS, type SettingKey } from "../services/setting-defs";
import type { OperatorVerification } from "../services/verification";
import type { OperatorWithdrawal, OperatorWithdrawalAction } from "../services/withdrawals";
import { connectOperator } from "./operator";
import { type Operator, OperatorError } from "./operator-calls";

function parseSettingKey(value: string): SettingKey {
  if (!isSettingKey(value)) throw new InvalidArgumentError(`unknown setting; known: ${SETTING_KEYS.join(", ")}`);
  return value;
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new InvalidArgumentError("not JSON (quote strings: '\"text\"')");
  }
}

/** A JSON file's content; a missing or unreadable file is the operator's mistake, said plainly. */
function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new OperatorError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new OperatorError(`${file} is not JSON: ${(error as Error).message}`);
  }
}

function parseIsoDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw new InvalidArgumentError("not an ISO 8601 date-time, e.g. 2026-05-01T12:00:00Z");
  }
  return date.toISOString();
}

function parseAmount(value: string): string {
  if (!NonNegativeDecimal.safeParse(value).success) throw new InvalidArgumentError("not a decimal amount, e.g. 125.5");
  return value;
}

function parseRefillStatus(value: string): RefillStatus {
  if (!(REFILL_STATUSES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`one of ${REFILL_STATUSES.join(", ")}`);
  }
  return value as RefillStatus;
}

function parseWithdrawalStatus(value: string): WithdrawalRowStatus {
  if (!(WITHDRAWAL_ROW_STATUSES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`one of ${WITHDRAWAL_ROW_STATUSES.join(", ")}`);
  }
  return value as WithdrawalRowStatus;
}

function parseVerificationStatus(value: string): VerificationStatus {
  if (!(VERIFICATION_STATUSES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`one of ${VERIFICATION_STATUSES.join(", ")}, all`);
  }
  return value as VerificationStatus;
}

function printWithdrawal(out: (line: string) => void, w: OperatorWithdrawal): void {
  out(
    `${w.id}  ${w.state.padEnd(13)} ${w.login.padEnd(16)} ${w.amount} ${w.currency} (${w.paymentSystemId}) fee ${w.fee} → ${w.amountToReceive} to ${w.wallet}  ${w.createdAt}${w.txHash ? `  tx ${w.txHash}` : ""}`,
  );
}

/** `3 h 05 min`, `4 min 10 s`, `12 s`. */
function waitedFor(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, "0")} min`;
  if (m > 0) return `${m} min ${String(s).padStart(2, "0")} s`;
  return `${s} s`;
}

function parsePositiveInt(value: string): number {
  if (!/^[1-9]\d{0,5}$/.test(value)) throw new InvalidArgumentError("a positive whole number");
  return Number(value);
}

function parseDays(value: string): number {
  if (!/^\d{1,4}(\.\d+)?$/.test(value) || Number(value) <= 0) {
    throw new InvalidArgumentError("a positive number of days, e.g. 1, 30 or 0.5");
  }
  return Number(value);
}

interface GlobalOptions {
  server?: string;
  token?: string;
}

/**
 * Where the commands read their environment and write their lines: the process's own by default;
 * the tests run the same commands in their process with an environment and buffers of their own.
 */
export interface CliIo {
  env: Record<string, string | undefined>;
  out(line: string): void;
  err(line: string): void;
}

const processIo: CliIo = {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

function createCli(io: CliIo = processIo): Command {
  // Commander reports its own errors (an unknown command, a bad argument) through `io` and throws
  // instead of ending the process (set before the commands are added: they inherit it), so the
  // exit code comes back to runCli either way.
  const program = new Command("kassa")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text.trimEnd()), writeErr: (text) => io.err(text.trimEnd()) })
    .description("Operator commands of the Kassa server")
    .option("--server <url>", "send the command to this running server (needs OPERATOR_TOKEN or --token)")
    .option("--token <token>", "the server's operator token")
    .showHelpAfterError();

  const withOperator = async (run: (operator: Operator) => Promise<void>) => {
    const global = program.opts<GlobalOptions>();
    const env = loadEnv(io.env, { forCli: true });
    const operator = await connectOperator(env, {
      serverUrl: global.server ?? io.env.KASSA_SERVER_URL,
      token: global.token,
    });
    // Which database the command acts on, always: a wrong DATA_DIR must not go unnoticed.
    io.err(`kassa: acting on ${operator.via}`);
    try {
      await run(operator);
    } finally {
      await operator.close();
    }
  };

  const maintenance = program.command("maintenance").description("the maintenance notice users see");
  maintenance
    .command("on")
    .description("switch the maintenance notice on")
    .option("--until <iso>", "when the work is expected to end (ISO 8601)", parseIsoDate)
    .option("--message <text>", "note for users in every language (overridden per language below)")
    .option("--message-en <text>", "note in English")
    .option("--message-ru <text>", "note in Russian")
    .option("--message-de <text>", "note in German")
    .option("--message-kk <text>", "note in Kazakh")
    .action(
      async (options: {
        until?: string;
        message?: string;
        messageEn?: string;
        messageRu?: string;
        messageDe?: string;
        messageKk?: string;
      }) => {
        const given = {
          en: options.messageEn ?? options.message,
          ru: options.messageRu ?? options.message,
          de: options.messageDe ?? options.message,
          kk: options.messageKk ?? options.message,
        };
        // Languages without a text get the English (or first given) one: see completeLocalizedText.
        const message = Object.fromEntries(Object.entries(given).filter(([, text]) => text !== undefined));
        await withOperator(async (operator) => {
          const state = await operator.maintenance({
            enabled: true,
            until: options.until ?? null,
            message: Object.keys(message).length > 0 ? message : null,
          });
          io.out(`Maintenance is on${state.until ? ` until ${state.until}` : ""} (via ${operator.via}).`);
          io.out(JSON.stringify(state, null, 2));
        });
      },
    );
  maintenance
    .command("off")
    .description("switch the maintenance notice off")
    .action(async () => {
      await withOperator(async (operator) => {
        const state = await operator.maintenance({ enabled: false });
        io.out(`Maintenance is off (via ${operator.via}).`);
        io.out(JSON.stringify(state, null, 2));
      });
    });
  maintenance
    .command("status")
    .description("show the maintenance notice")
    .action(async () => {
      await withOperator(async (operator) => {
        io.out(JSON.stringify(await operator.getSetting("technicalWork"), null, 2));
      });
    });

  const settings = program.command("settings").description("server settings");
  settings
    .command("get")
    .description(`print a setting as JSON (keys: ${SETTING_KEYS.join(", ")})`)
    .argument("<key>", "setting key", parseSettingKey)
    .action(async (key: SettingKey) => {
      await withOperator(async (operator) => {
        io.out(JSON.stringify(await operator.getSetting(key), null, 2));
      });
    });
  settings
    .command("set")
    .description("store a setting; the value is JSON and is checked against the setting's schema")
    .argument("<key>", "setting key", parseSettingKey)
    .argument("<json>", 'the value as JSON, e.g. true, \'"text"\', \'["5","3","1"]\'', parseJson)
    .action(async (key: SettingKey, value: unknown) => {
      await withOperator(async (operator) => {
        const stored = await operator.setSetting(key, value);
        io.out(`${key} = ${JSON.stringify(stored)} (via ${operator.via}).`);
      });
    });
  settings
    .command("list")
    .description("print every setting")
    .action(async () => {
      await withOperator(async (operator) => {
        const all: Record<string, unknown> = {};
        for (const key of SETTING_KEYS) all[key] = await operator.getSetting(key);
        io.out(JSON.stringify(all, null, 2));
      });
    });

  const catalog = program
    .command("catalog")
    .description("what the cabinet offers: plans, payment systems, subscription options, crypto cases");
  catalog
    .command("show")
    .description("print the whole catalogue as JSON, in the shape `catalog apply` reads")
    .action(async () => {
      await withOperator(async (operator) => io.out(JSON.stringify(await operator.catalog(), null, 2)));
    });
  catalog
    .command("example")
    .description("print the demo catalogue as JSON: a file to start your own from (touches no database)")
    .action(() => io.out(JSON.stringify(DEMO_CATALOG, null, 2)));
  catalog
    .command("apply")
    .description("add and change entries by id from a JSON file, in one transaction (sections left out stay)")
    .argument("<file>", "a JSON file: { plans, paymentSystems, subscriptionOptions, cryptoCases }")
    .action(async (file: string) => {
      const parsed = Catalog.safeParse(readJsonFile(file));
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => `  ${issue.path.join(".") || "(file)"}: ${issue.message}`);
        throw new OperatorError(`${file} is not a catalogue:\n${issues.join("\n")}`);
      }
      await withOperator(async (operator) => {
        const report = await operator.applyCatalog(parsed.data);
        for (const [section, entries] of Object.entries(report)) {
          const list = (ids: string[]) => (ids.length > 0 ? ids.join(", ") : "none");
          io.out(
            `${section}: added ${list(entries.added)}; changed ${list(entries.changed)}; unchanged ${list(entries.unchanged)}`,
          );
          if (entries.notInFile.length > 0) {
            io.out(`  not in the file, left as they are: ${entries.notInFile.join(", ")}`);
          }
        }
        io.out(`Catalogue applied (via ${operator.via}).`);
      });
    });

  const explorer = program
    .command("explorer")
    .description("block explorers: where the app links a payment system's transaction hashes");
  explorer
    .command("set")
    .description("set a payment system's explorer: an https URL with {tx} where the hash goes")
    .argument("<paymentSystem>", "payment system id, e.g. usdt-trc20")
    .argument("<template>", "e.g. 'https://tronscan.org/#/transaction/{tx}'")
    .action(async (id: string, template: string) => {
      await withOperator(async (operator) => {
        const system = await operator.setExplorer(id, template);
        io.out(`${system.id}: transactions link to ${system.explorerUrl} (via ${operator.via}).`);
      });
    });
  explorer
    .command("remove")
    .description("remove a payment system's explorer (its hashes show without a link)")
    .argument("<paymentSystem>", "payment system id")
    .action(async (id: string) => {
      await withOperator(async (operator) => {
        const system = await operator.setExplorer(id, null);
        io.out(`${system.id}: no explorer (via ${operator.via}).`);
      });
    });

  const refill = program.command("refill").description("users' refills");
  refill
    .command("list")
    .description("refills of every user, newest first")
    .option("--status <status>", `only this status (${REFILL_STATUSES.join(", ")})`, parseRefillStatus)
    .option("--limit <n>", "at most this many (default 100)", parsePositiveInt)
    .action(async (options: { status?: RefillStatus; limit?: number }) => {
      await withOperator(async (operator) => {
        const rows = await operator.listRefills(options);
        if (rows.length === 0) io.out("No refills.");
        for (const r of rows) {
          const credited = r.amountCredited === null ? "" : ` credited ${r.amountCredited}`;
          io.out(
            `${r.id}  ${r.status.padEnd(11)} ${r.login.padEnd(16)} ${r.amountRequested} ${r.currency} (${r.paymentSystemId})${credited}  ${r.createdAt}${r.txHash ? `  tx ${r.txHash}` : ""}`,
          );
        }
      });
    });
  refill
    .command("confirm")
    .description("the coins arrived: mark the refill replenished and credit the balance")
    .argument("<id>", "refill id")
    .option("--amount <amount>", "the amount that arrived (default: the amount requested)", parseAmount)
    .action(async (id: string, options: { amount?: string }) => {
      await withOperator(async (operator) => {
        const r = await operator.confirmRefill(id, options.amount);
        io.out(`Refill ${r.id} replenished: ${r.amountCredited} ${r.currency} credited (via ${operator.via}).`);
      });
    });
  refill
    .command("reject")
    .description("the coins did not arrive: mark the refill rejected")
    .argument("<id>", "refill id")
    .option("--note <text>", "why (kept for the operator)")
    .action(async (id: string, options: { note?: string }) => {
      await withOperator(async (operator) => {
        const r = await operator.rejectRefill(id, options.note);
        io.out(`Refill ${r.id} rejected (via ${operator.via}).`);
      });
    });

  program
    .command("accruals")
    .description("daily accruals of the deposits")
    .command("run")
    .description("accrue every due deposit-day now (the server also does it every ACCRUAL_INTERVAL_SECONDS)")
    .action(async () => {
      await withOperator(async (operator) => {
        const run = await operator.runAccruals();
        io.out(
          `Accruals at ${run.now}: ${run.days} day(s) on ${run.deposits} deposit(s), ${run.completed} completed, ${run.reinvested} reinvested (via ${operator.via}).`,
        );
        for (const f of run.failed) io.err(`  failed: deposit ${f.depositId}: ${f.error}`);
      });
    });

  program
    .command("jobs")
    .description("the background jobs (accruals, sweeper, the bot's outbox, digests, menus, lease, stored updates)")
    .command("list")
    .description("each job's last recorded run: the instance, when, how long, and how it ended")
    .action(async () => {
      await withOperator(async (operator) => {
        const runs = await operator.jobs();
        if (runs.length === 0) io.out("No job has run yet.");
        for (const r of runs) {
          const took = r.ms === null ? "" : ` in ${r.ms} ms`;
          const outcome = r.error === null ? "ok" : `failed: ${r.error}`;
          io.out(
            `${r.name.padEnd(13)} ${r.startedAt}${took} on ${r.instance}: ${outcome} (${r.runs} run(s), ${r.failures} failed)`,
          );
        }
      });
    });

  program
    .command("account")
    .description("investors' accounts")
    .command("unlock")
    .description("lift the account's locks: the wait after wrong passwords, a reset or codes locked by wrong guesses")
    .argument("<login>", "login or e-mail")
    .action(async (login: string) => {
      await withOperator(async (operator) => {
        const unlocked = await operator.unlockAccount(login);
        io.out(`Account ${unlocked.login} unlocked (via ${operator.via}).`);
      });
    });

  program
    .command("ledger")
    .description("the ledger")
    .command("audit")
    .description("check that every balance equals the sum of its operations and none is negative")
    .action(async () => {
      await withOperator(async (operator) => {
        const discrepancies = await operator.auditLedger();
        if (discrepancies.length === 0) {
          io.out(`Ledger consistent (via ${operator.via}).`);
          return;
        }
        for (const d of discrepancies) {
          io.err(`  user ${d.userId} ${d.currency}: balance ${d.balance}, operations sum ${d.operationsSum}`);
        }
        throw new OperatorError(`${discrepancies.length} balance(s) differ from their operations`);
      });
    });

  const withdrawal = program.command("withdrawal").description("users' withdrawals");
  withdrawal
    .command("list")
    .description("withdrawals of every user, newest first")
    .option("--status <status>", `only this status (${WITHDRAWAL_ROW_STATUSES.join(", ")})`, parseWithdrawalStatus)
    .option("--limit <n>", "at most this many (default 100)", parsePositiveInt)
    .action(async (options: { status?: WithdrawalRowStatus; limit?: number }) => {
      await withOperator(async (operator) => {
        const rows = await operator.listWithdrawals(options);
        if (rows.length === 0) io.out("No withdrawals.");
        for (const w of rows) printWithdrawal(io.out, w);
      });
    });
  const move = (name: OperatorWithdrawalAction, description: string) =>
    withdrawal.command(name).description(description).argument("<id>", "withdrawal id");
  const run = (action: OperatorWithdrawalAction) => async (id: string, options: { tx?: string; note?: string }) => {
    await withOperator(async (operator) => {
      const w = await operator.processWithdrawal(id, action, { txHash: options.tx, note: options.note });
      io.out(`Withdrawal ${w.id} is ${w.state} (via ${operator.via}).`);
      printWithdrawal(io.out, w);
    });
  };
  move("inspect", "pending → on inspection").action(run("inspect"));
  move("success", "paid out: success with the transaction hash")
    .requiredOption("--tx <hash>", "the transaction hash of the payout")
    .action(run("success"));
  move("reject", "rejected: the amount returns to the balance")
    .option("--note <text>", "why (kept for the operator)")
    .action(run("reject"));
  move("error", "failed: the amount returns to the balance")
    .option("--note <text>", "what went wrong (kept for the operator)")
    .action(run("error"));

  const verification = program.command("verification").description("users' verification requests");
  const printVerification = (v: OperatorVerification) =>
    io.out(
      `${v.userId}  ${String(v.status).padEnd(10)} ${v.login.padEnd(16)} ${v.fullName} (${v.dateOfBirth}, ${v.familyStatus}, document ${v.documentNumber})  ${v.submittedAt}${v.note ? `  note: ${v.note}` : ""}`,
    );
  verification
    .command("list")
    .description("verification requests, newest first (in process by default)")
    .option("--status <status>", `only this status (${VERIFICATION_STATUSES.join(", ")}, or all)`, "in_process")
    .option("--limit <n>", "at most this many (default 100)", parsePositiveInt)
    .action(async (options: { status: string; limit?: number }) => {
      const status = options.status === "all" ? undefined : parseVerificationStatus(options.status);
      await withOperator(async (operator) => {
        const rows = await operator.listVerifications({ status, limit: options.limit });
        if (rows.length === 0) io.out("No verification requests.");
        for (const v of rows) printVerification(v);
      });
    });
  verification
    .command("approve")
    .description("the request in process is verified (success); the user is notified")
    .argument("<user>", "user id or login")
    .action(async (user: string) => {
      await withOperator(async (operator) => {
        const v = await operator.decideVerification(user, "approve");
        io.out(`Verification of ${v.login} is ${v.status} (via ${operator.via}).`);
      });
    });
  verification
    .command("deny")
    .description("the request in process is denied; the user is notified (with the note)")
    .argument("<user>", "user id or login")
    .option("--note <text>", "why (shown to the user)")
    .action(async (user: string, options: { note?: string }) => {
      await withOperator(async (operator) => {
        const v = await operator.decideVerification(user, "deny", options.note);
        io.out(`Verification of ${v.login} is ${v.status} (via ${operator.via}).`);
      });
    });

  const outbox = program.command("outbox").description("the bot's chat outbox (notifications waiting for Telegram)");
  outbox
    .command("list")
    .description("messages waiting to be sent, oldest first, with how many wait and the oldest one's age")
    .option("--limit <n>", "at most this many (default 100)", parsePositiveInt)
    .option("--given-up", "the messages given up instead (most recent first), to resend with `outbox resend <id>`")
    .action(async (options: { limit?: number; givenUp?: boolean }) => {
      await withOperator(async (operator) => {
        const backlog = await operator.chatOutbox(options.limit, options.givenUp ? "given_up" : "waiting");
        if (options.givenUp) {
          if (backlog.items.length === 0) io.out("No chat messages given up.");
        } else {
          io.out(
            backlog.waiting === 0
              ? "No chat messages waiting."
              : `${backlog.waiting} chat message(s) waiting, the oldest for ${waitedFor(backlog.oldestWaitingSeconds ?? 0)}.`,
          );
        }
        for (const m of backlog.items) {
          const when = m.givenUpAt ? `given up ${m.givenUpAt}` : `next ${m.nextAttemptAt}`;
          io.out(
            `${m.id}  ${m.login.padEnd(16)} ${m.kind.padEnd(22)} queued ${m.createdAt}  tries ${m.attempts}  ${when}${m.lastError ? `  last error: ${m.lastError}` : ""}`,
          );
        }
      });
    });
  outbox
    .command("resend")
    .description("queue a given-up message again, as if new (its tries and 72 hours start again)")
    .argument("<id>", "the message's id (from outbox list --given-up)")
    .action(async (id: string) => {
      await withOperator(async (operator) => {
        const resent = await operator.resendChatOutbox(id);
        if (resent === 0) throw new OperatorError(`no given-up chat message ${id}`);
        io.out(`Chat message ${id} queued again (via ${operator.via}).`);
      });
    });
  outbox
    .command("retry")
    .description("send waiting messages now instead of at their next back-off (all, or the one given)")
    .argument("[id]", "one message's id (from outbox list)")
    .action(async (id: string | undefined) => {
      await withOperator(async (operator) => {
        const retried = await operator.retryChatOutbox(id);
        if (id !== undefined && retried === 0) throw new OperatorError(`no waiting chat message ${id}`);
        io.out(`${retried} chat message(s) due now (via ${operator.via}).`);
      });
    });

  const newsCommand = program.command("news").description("news items");
  const newsAdd = newsCommand
    .command("add")
    .description("publish a news item; languages not given are English (body: limited HTML, sanitised when served)");
  for (const lang of LANGUAGES) {
    newsAdd.option(`--title-${lang} <text>`, `title in ${lang}`).option(`--body-${lang} <html>`, `body in ${lang}`);
  }
  newsAdd.action(async (options: Record<string, string | undefined>) => {
    const title: Partial<Record<Language, string>> = {};
    const body: Partial<Record<Language, string>> = {};
    for (const lang of LANGUAGES) {
      const cap = lang.charAt(0).toUpperCase() + lang.slice(1);
      const t = options[`title${cap}`];
      const b = options[`body${cap}`];
      if (t !== undefined) title[lang] = t;
      if (b !== undefined) body[lang] = b;
    }
    if (!title.en || !body.en) throw new OperatorError("--title-en and --body-en are required");
    await withOperator(async (operator) => {
      const item = await operator.addNews({ title, body });
      io.out(`News ${item.id} published at ${item.publishedAt} (via ${operator.via}).`);
    });
  });
  newsCommand
    .command("list")
    .description("every news item, newest first")
    .action(async () => {
      await withOperator(async (operator) => {
        const items = await operator.listNews();
        if (items.length === 0) io.out("No news.");
        for (const n of items) io.out(`${n.id}  ${n.publishedAt}  ${n.title.en}`);
      });
    });

  const clock = program
    .command("clock")
    .description("development only: move the server's clock forward to see accruals and plan ends");
  const printShift = (shift: Awaited<ReturnType<Operator["shiftClock"]>>, via: string) => {
    const days = shift.offsetSeconds / 86_400;
    io.out(`Server time ${shift.now} (offset ${days} day(s)) (via ${via}).`);
    const run = shift.accruals;
    io.out(
      `Accruals: ${run.days} day(s) on ${run.deposits} deposit(s), ${run.completed} completed, ${run.reinvested} reinvested.`,
    );
  };
  clock
    .command("status")
    .description("the server's time and offset")
    .action(async () => {
      await withOperator(async (operator) => {
        const state = await operator.clock();
        io.out(`Server time ${state.now} (offset ${state.offsetSeconds / 86_400} day(s)).`);
      });
    });
  clock
    .command("advance")
    .description("move the clock forward by <days> and run the accruals")
    .argument("<days>", "days (fractions allowed)", parseDays)
    .action(async (days: number) => {
      await withOperator(async (operator) =>
        printShift(await operator.shiftClock({ advanceDays: days }), operator.via),
      );
    });
  clock
    .command("reset")
    .description("back to the real time")
    .action(async () => {
      await withOperator(async (operator) => printShift(await operator.shiftClock({ reset: true }), operator.via));
    });

  return program;
}

export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  try {
    await createCli(io).parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof EnvError || error instanceof OperatorError) {
      io.err(`kassa: ${error.message}`);
      return 1;
    }
    const body = (error as { toBody?: () => unknown }).toBody?.();
    if (body) {
      io.err(`kassa: ${JSON.stringify(body)}`);
      return 1;
    }
    throw error;
  }
}
