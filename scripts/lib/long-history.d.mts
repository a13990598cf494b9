/** Types of long-history.mjs: an investor with a long history made through a running server's API. */
export function longHistoryAmount(i: number): string;
export function seedLongHistory(options: {
  base: string;
  operatorToken: string;
  operations?: number;
  days?: number;
  language?: string;
}): Promise<{ login: string; password: string; token: string; user: unknown }>;
