/**
 * A small in-memory rate limiter (fixed windows per key). Enough for one server process; several
 * instances behind a load balancer would each count on their own (server/README.md).
 * It reads the injected clock, so tests move time instead of waiting.
 */
import type { Clock } from "../clock";
import type { RateLimitRule } from "../env";
import { AppError } from "../errors";

interface Window {
  count: number;
  /** Epoch ms when the window ends. */
  resetAt: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private operations = 0;

  constructor(
    private readonly clock: Clock,
    /** Beyond this many keys the oldest are dropped (a flood of distinct keys cannot exhaust memory). */
    private readonly maxKeys = 100_000,
  ) {}

  /** Seconds until `key` may act again under `rule`; 0 when it may act now. Counts nothing. */
  retryAfter(key: string, rule: RateLimitRule | null): number {
    if (!rule) return 0;
    const window = this.current(key);
    if (!window || window.count < rule.max) return 0;
    return Math.max(1, Math.ceil((window.resetAt - this.clock.now().getTime()) / 1000));
  }

  /** Counts one event for `key`. */
  hit(key: string, rule: RateLimitRule | null): void {
    if (!rule) return;
    const now = this.clock.now().getTime();
    const window = this.current(key);
    if (window) {
      window.count += 1;
    } else {
      this.windows.set(key, { count: 1, resetAt: now + rule.windowSeconds * 1000 });
      this.sweep(now);
    }
  }

  /** Refuses with 429 RATE_LIMITED when `key` has used up `rule`, else counts one event. */
  consume(key: string, rule: RateLimitRule | null): void {
    assertAllowed(this.retryAfter(key, rule));
    this.hit(key, rule);
  }

  /** Refuses with 429 RATE_LIMITED when `key` has used up `rule`; counts nothing. */
  check(key: string, rule: RateLimitRule | null): void {
    assertAllowed(this.retryAfter(key, rule));
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }

  private current(key: string): Window | undefined {
    const window = this.windows.get(key);
    if (window && window.resetAt <= this.clock.now().getTime()) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private sweep(now: number): void {
    this.operations += 1;
    if (this.operations % 1000 !== 0 && this.windows.size <= this.maxKeys) return;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    // Map iteration is insertion order: the first keys are the oldest windows.
    for (const key of this.windows.keys()) {
      if (this.windows.size <= this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}

/** 429 RATE_LIMITED with `Retry-After` and `params.retryAfter` (seconds). */
export function rateLimited(retryAfterSeconds: number): AppError {
  const seconds = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  return new AppError("RATE_LIMITED", { params: { retryAfter: seconds }, headers: { "retry-after": seconds } });
}

function assertAllowed(retryAfterSeconds: number): void {
  if (retryAfterSeconds > 0) throw rateLimited(retryAfterSeconds);
}
