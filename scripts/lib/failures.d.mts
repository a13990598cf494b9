/** A failed step's failures in a few lines (see failures.mjs). */
export function whatFailed(output: string, max?: number): string[];
