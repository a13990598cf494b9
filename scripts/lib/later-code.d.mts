import type { Plugin } from "vite";

export function laterCode(modules: Record<string, RegExp>): Plugin;
