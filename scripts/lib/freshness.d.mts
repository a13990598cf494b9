/** Types of freshness.mjs: is the production build older than the sources it is built from? */
export function newest(path: string): number;
export function buildIsStale(distIndex?: string): boolean;
