/**
 * The development clock (never in production): the operator moves the server's time forward by
 * days so accruals, plan ends and expiries can be seen without waiting; the accruals then run at
 * the new time. The offset is the `devClock` setting (it survives a restart) and, in a running
 * server, its in-memory `OffsetClock`.
 */
import { type OffsetClock, offsetClock, systemClock } from "../clock";
import type { Database } from "../db/client";
import { type AccrualRun, runAccruals } from "./accruals";
import { getSetting, setSetting } from "./settings";

export interface DevClockChange {
  /** Move forward by this many seconds (days × 86400). */
  advanceSeconds?: number | undefined;
  /** Back to the real time (offset 0). */
  reset?: boolean | undefined;
}

export interface DevClockState {
  /** The server's time now (ISO 8601). */
  now: string;
  offsetSeconds: number;
}

export interface DevClockShift extends DevClockState {
  /** The accrual run made at the new time. */
  accruals: AccrualRun;
}

export function devClockState(clock: OffsetClock): DevClockState {
  return { now: clock.now().toISOString(), offsetSeconds: Math.round(clock.offsetMs() / 1000) };
}

/** A development clock from the stored offset (the CLI when no server runs). */
export async function loadDevClock(db: Database): Promise<OffsetClock> {
  return offsetClock(systemClock, (await getSetting(db, "devClock")).offsetSeconds * 1000);
}

/** Applies the change, stores the offset, and runs the accruals at the new time. */
export async function shiftDevClock(db: Database, clock: OffsetClock, change: DevClockChange): Promise<DevClockShift> {
  const current = Math.round(clock.offsetMs() / 1000);
  const offsetSeconds = change.reset ? 0 : current + Math.max(0, Math.round(change.advanceSeconds ?? 0));
  await setSetting(db, systemClock, "devClock", { offsetSeconds });
  clock.setOffset(offsetSeconds * 1000);
  const accruals = await runAccruals(db, clock);
  return { ...devClockState(clock), accruals };
}
