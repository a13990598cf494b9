/** Types of start-command.mjs: how `npm start` runs the server. */
/** The arguments to give `process.execPath` to start `dir`'s server as its `npm start` does. */
export function startArguments(dir: string): string[];
