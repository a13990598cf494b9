/** The time source of business rules; tests pass a fixed one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock stopped at `at` that a test may move with `set`/`advance`. */
export function fixedClock(at: Date | string): Clock & { set(to: Date | string): void; advance(ms: number): void } {
  let current = new Date(at);
  return {
    now: () => new Date(current),
    set: (to) => {
      current = new Date(to);
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}

/**
 * Development time travel: `base` moved forward by an offset the operator sets
 * (`kassa clock advance <days>`), so accruals, expiries and the rest can be seen days ahead.
 * Never used in production.
 */
export interface OffsetClock extends Clock {
  offsetMs(): number;
  setOffset(ms: number): void;
}

export function offsetClock(base: Clock, offsetMs = 0): OffsetClock {
  let offset = offsetMs;
  return {
    now: () => new Date(base.now().getTime() + offset),
    offsetMs: () => offset,
    setOffset: (ms) => {
      offset = ms;
    },
  };
}
