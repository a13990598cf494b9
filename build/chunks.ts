// How the build groups code into files: the cabinet's launch chunk and the cabinet's texts per language.
import type { ChunkingContext } from "rolldown";
import { CABINET_TEXTS } from "../src/config/cabinet-texts.ts";

/**
 * Where a launch starts: the entry with the login (the first screen, whose budget this must not touch), and the
 * cabinet's frame and first screen, with the half of `callApi` that reads the contract (`src/lib/checked-call.ts`,
 * loaded on a cabinet's first call: in its own file it cost that launch a request). Other entry screens may load
 * the cabinet's launch chunk for what they share.
 */
const ENTRY_ROOTS = [/src[\\/]main\.tsx$/, /src[\\/]app[\\/]routes[\\/]login\.tsx$/];
const CABINET_ROOTS = [
  /src[\\/]app[\\/]launch-data\.ts$/,
  /src[\\/]app[\\/]layouts[\\/]cabinet-layout\.tsx$/,
  /src[\\/]app[\\/]routes[\\/]cabinet\.tsx$/,
  /src[\\/]lib[\\/]checked-call\.ts$/,
];

/** Whether `id` is imported (statically, through any chain) by a module that `roots` matches. */
function importedFrom(id: string, roots: RegExp[], ctx: ChunkingContext, seen = new Set<string>()): boolean {
  if (roots.some((root) => root.test(id))) return true;
  if (seen.has(id)) return false;
  seen.add(id);
  return (ctx.getModuleInfo(id)?.importers ?? []).some((importer) => importedFrom(importer, roots, ctx, seen));
}

/**
 * Library modules only signed-in screens use (the tab bar, the refresh button, paged lists, the fetching
 * indicator). The libraries' index files, which the entry imports too, re-export them, so the walk above counts
 * them as the entry's; each then became a file of a few hundred bytes that every cabinet launch asked for.
 */
const CABINET_LIBRARY =
  /telegram-ui[\\/]dist[\\/]components[\\/](Layout[\\/](Tabbar|FixedLayout)|Blocks[\\/]IconButton)[\\/]|(query-core|react-query)[\\/]build[\\/]modern[\\/](infiniteQueryObserver|useInfiniteQuery|infiniteQueryOptions|useIsFetching)\.js$/;

/** `cabinet-launch` for code the cabinet's frame or first screen imports and no entry screen does. */
export function cabinetLaunchChunk(id: string, ctx: ChunkingContext): string | null {
  if (/\.css$|locales[\\/]/.test(id)) return null;
  if (CABINET_LIBRARY.test(id)) return importedFrom(id, CABINET_ROOTS, ctx) ? "cabinet-launch" : null;
  if (!importedFrom(id, CABINET_ROOTS, ctx) || importedFrom(id, ENTRY_ROOTS, ctx)) return null;
  return "cabinet-launch";
}

const CABINET_TEXTS_FILE = new RegExp(`locales[\\\\/](\\w+)[\\\\/](${CABINET_TEXTS.join("|")})\\.json$`);

/** `texts-cabinet-<language>` for the namespaces every cabinet launch loads (`src/config/cabinet-texts.ts`). */
export function cabinetTextsChunk(id: string): string | null {
  const language = CABINET_TEXTS_FILE.exec(id)?.[1];
  return language ? `texts-cabinet-${language}` : null;
}

const LANGUAGE_TEXTS = /(?:locales[\\/](\w+)[\\/]common\.json|src[\\/]config[\\/]locale-files[\\/](\w+)\.ts)$/;

/**
 * `texts-<language>` for a language's map of its text files (`src/config/locale-files/`) and its `common`
 * namespace, which every launch reads first: the map comes with it, in no file of its own.
 */
export function languageTextsChunk(id: string): string | null {
  const match = LANGUAGE_TEXTS.exec(id);
  const language = match?.[1] ?? match?.[2];
  return language ? `texts-${language}` : null;
}
