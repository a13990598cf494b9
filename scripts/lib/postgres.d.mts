/** Types of postgres.mjs: a throw-away PostgreSQL server for the tests. */
export function freePort(): Promise<number>;
export function startPostgres(bin: string): Promise<{ url: string; stop(): void }>;
