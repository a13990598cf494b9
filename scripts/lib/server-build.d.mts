/** Types of server-build.mjs: the server as built JavaScript. */
export const SERVER_ENTRY: string;
export function serverBuildIsStale(): boolean;
export function buildServer(): Promise<void>;
