import type { OutputBundle, OutputChunk } from "rolldown";
import type { Plugin } from "vite";

export function chunkFiles(
  bundle: OutputBundle,
  roots: RegExp[],
  loaded: Set<string>,
): { code: string[]; css: string[] };
export function entryChunk(bundle: OutputBundle): OutputChunk | undefined;
export function laterCode(modules: Record<string, RegExp>): Plugin;
