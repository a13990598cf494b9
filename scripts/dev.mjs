// `npm run dev`: the API (restarted on change) and Vite with hot reload; Vite proxies /api to the API.
import { spawn } from "node:child_process";

const apiPort = process.env.KASSA_API_PORT ?? "8787";
const children = [
  spawn("node_modules/.bin/tsx", ["watch", "--clear-screen=false", "server/src/main.ts"], {
    stdio: "inherit",
    env: { ...process.env, PORT: apiPort, STATIC_DIR: "" },
  }),
  spawn("node_modules/.bin/vite", ["--port", process.env.PORT ?? "5173", "--strictPort"], {
    stdio: "inherit",
    env: { ...process.env, KASSA_DEV_API: `http://127.0.0.1:${apiPort}` },
  }),
];
const stop = (signal) => {
  for (const child of children) child.kill(signal);
};
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(signal));
for (const child of children)
  child.on("exit", (code) => {
    stop("SIGTERM");
    process.exitCode = code ?? 0;
  });
