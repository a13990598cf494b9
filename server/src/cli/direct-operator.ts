/**
 * An operator command on the database itself: with PostgreSQL, or with an embedded database no server holds
 * (`connectOperator` in operator.ts loads this module only then, so a command sent to a server loads no database
 * layer). The services do the work, as the server's operator routes have them do it.
 */
import type { NewsItem } from "@contract";
import { systemClock } from "../clock";
import { type DatabaseHandle, DatabaseMissingError, openDatabase } from "../db/client";
import { productionCodeSender } from "../delivery/production";
import type { Env, NodeEnv } from "../env";
import { listJobRuns } from "../jobs";
import { createLimiter } from "../security/rate-limit";
import { runAccruals } from "../services/accruals";
import { unlockAccount } from "../services/auth";
import { applyCatalog, readCatalog, setExplorer } from "../services/catalog";
import { isUuid } from "../services/deposit-rows";
import { devClockState, loadDevClock, shiftDevClock } from "../services/dev-clock";
import { auditLedger } from "../services/ledger";
import { addNews, listNews } from "../services/news";
import { confirmRefill, listRefillsForOperator, rejectRefill } from "../services/refills";
import { getSetting, setMaintenance, setSetting } from "../services/settings";
import { decideVerification, listVerifications } from "../services/verification";
import { listWithdrawalsForOperator, processWithdrawal } from "../services/withdrawals";
import { listWaiting, resendGivenUp, retryWaiting } from "../telegram/outbox";
import { NO_DEV_CLOCK, type Operator, OperatorError } from "./operator-calls";

/** Opens the database of `target` (never a new one) for the commands. */
export async function openDirectOperator(
  target: { databaseUrl: string } | { dataDir: string },
  via: string,
  env: Env,
): Promise<Operator> {
  return directOperator(await openExisting(target), via, env.NODE_ENV, env);
}

/** The CLI never creates a database: a missing one is the operator's mistake (another DATA_DIR). */
async function openExisting(options: { databaseUrl?: string; dataDir?: string }): Promise<DatabaseHandle> {
  try {
    return await openDatabase({ ...options, existingOnly: true });
  } catch (error) {
    if (error instanceof DatabaseMissingError) throw new OperatorError(error.message);
    throw error;
  }
}

function directOperator(handle: DatabaseHandle, via: string, nodeEnv: NodeEnv, env?: Env): Operator {
  const db = handle.db;
  // In production a withdrawal's move is told through the investor's code channel as the server
  // tells it (e-mail, SMS); a notice that cannot go out is reported on stderr.
  const notices =
    nodeEnv === "production" && env
      ? {
          codeSender: productionCodeSender(env),
          log: { warn: (details: object, message: string) => console.error(message, details) },
        }
      : {};
  // The server's time: real time, plus the development offset outside production.
  const clock = async () => (nodeEnv === "production" ? systemClock : await loadDevClock(db));
  return {
    via,
    maintenance: (change) => setMaintenance(db, systemClock, change),
    getSetting: async (key) => getSetting(db, key),
    setSetting: (key, value) => setSetting(db, systemClock, key, value),
    setExplorer: (id, template) => setExplorer(db, systemClock, id, template),
    catalog: () => readCatalog(db),
    applyCatalog: (catalog) => applyCatalog(db, catalog),
    listRefills: (filter) => listRefillsForOperator(db, filter),
    confirmRefill: async (id, amount) => confirmRefill({ db, clock: await clock() }, id, amount),
    rejectRefill: async (id, note) => rejectRefill({ db, clock: await clock() }, id, note),
    listWithdrawals: (filter) => listWithdrawalsForOperator(db, filter),
    processWithdrawal: async (id, action, options) =>
      processWithdrawal({ db, clock: await clock(), ...notices }, id, action, options),
    runAccruals: async () => runAccruals(db, await clock()),
    jobs: () => listJobRuns(db),
    // No server holds this database: the counters that outlive a process are in it (security/rate-limit.ts).
    unlockAccount: async (login) =>
      unlockAccount({ db, limiter: createLimiter({ db, clock: await clock(), shared: true }) }, login),
    auditLedger: () => auditLedger(db),
    clock: async () => {
      if (nodeEnv === "production") return { now: systemClock.now().toISOString(), offsetSeconds: 0 };
      return devClockState(await loadDevClock(db));
    },
    shiftClock: async (change) => {
      if (nodeEnv === "production") throw new OperatorError(NO_DEV_CLOCK);
      return shiftDevClock(db, await loadDevClock(db), {
        reset: change.reset,
        advanceSeconds: change.advanceDays === undefined ? undefined : change.advanceDays * 86_400,
      });
    },
    listVerifications: (filter) => listVerifications(db, filter),
    decideVerification: async (user, decision, note) =>
      decideVerification({ db, clock: await clock() }, user, decision === "approve" ? "success" : "denied", note),
    addNews: async (input) => addNews(db, await clock(), input, { mail: env?.PUBLIC_URL !== undefined }),
    listNews: async () => (await listNews(db)) as NewsItem[],
    chatOutbox: async (limit = 100, status = "waiting") => listWaiting(db, (await clock()).now(), limit, status),
    retryChatOutbox: async (id) => retryWaiting(db, (await clock()).now(), id),
    resendChatOutbox: async (id) => (isUuid(id) ? resendGivenUp(db, (await clock()).now(), id) : 0),
    close: () => handle.close(),
  };
}
