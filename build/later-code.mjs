// The build step that lists the code a screen wants after its first paint (a dialog or sheet a tap opens).
/**
 * The files of code a screen will want after its first paint (a dialog or sheet a tap opens), written into the
 * built `index.html` as a JSON data block (`<script type="application/json" id="kassa-later-code">`, never run), so
 * the app can download them ahead with module preload (`src/lib/warm-up.ts`) without evaluating them: a tap then
 * opens the dialog at once, offline as well, and the evaluation (a form's code brings zod) happens on the tap, not
 * while the screen is being read. Per key: the chunk of the module `modules[key]` matches and every chunk it
 * imports, less the entry and what the entry imports, and their stylesheets.
 *
 * @param {Record<string, RegExp>} modules
 * @returns {import("vite").Plugin}
 */
/**
 * The chunks (and their stylesheets) of the modules `roots` match and every chunk they import, less `loaded`: the
 * files a browser needs for those modules. A root's chunk is the one it is the facade of, or the group's it was put in.
 *
 * @param {import("rolldown").OutputBundle} bundle
 * @param {RegExp[]} roots
 * @param {Set<string>} loaded
 * @returns {{ code: string[], css: string[] }}
 */
export function chunkFiles(bundle, roots, loaded) {
  const chunks = Object.values(bundle).filter((file) => file.type === "chunk");
  const code = new Set();
  const css = new Set();
  const visit = (fileName) => {
    const chunk = fileName ? bundle[fileName] : undefined;
    if (chunk?.type !== "chunk" || loaded.has(fileName) || code.has(fileName)) return;
    code.add(fileName);
    for (const file of chunk.viteMetadata?.importedCss ?? []) css.add(file);
    for (const file of chunk.imports) visit(file);
  };
  for (const root of roots) {
    const chunk =
      chunks.find((c) => c.facadeModuleId && root.test(c.facadeModuleId)) ??
      chunks.find((c) => c.moduleIds.some((id) => root.test(id)));
    if (!chunk) throw new Error(`no chunk holds ${root}`);
    visit(chunk.fileName);
  }
  return { code: [...code], css: [...css] };
}

/**
 * The chunk of the app's entry module (`src/main.tsx`). The page's own entry is nothing but imports (the entry's
 * code is in a group, vite.config.ts), so Vite names this chunk's script in the page and drops the entry chunk.
 *
 * @param {import("rolldown").OutputBundle} bundle
 * @returns {import("rolldown").OutputChunk | undefined}
 */
export function entryChunk(bundle) {
  for (const file of Object.values(bundle)) {
    if (file.type === "chunk" && file.moduleIds.some((id) => /src[\\/]main\.tsx$/.test(id))) return file;
  }
  return undefined;
}

/**
 * @param {Record<string, RegExp>} modules
 * @returns {import("vite").Plugin}
 */
export function laterCode(modules) {
  return {
    name: "kassa:later-code",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const html = bundle["index.html"];
      if (html?.type !== "asset") return;
      const entry = entryChunk(bundle);
      // The entry's chunk and every chunk it imports, through any chain.
      const loaded = new Set();
      const load = (fileName) => {
        const chunk = bundle[fileName];
        if (chunk?.type !== "chunk" || loaded.has(fileName)) return;
        loaded.add(fileName);
        for (const file of chunk.imports) load(file);
      };
      if (entry) load(entry.fileName);
      /** @type {Record<string, { code: string[], css: string[] }>} */
      const files = {};
      for (const [key, pattern] of Object.entries(modules)) files[key] = chunkFiles(bundle, [pattern], loaded);
      const block = `<script type="application/json" id="kassa-later-code">${JSON.stringify(files).replace(/</g, "\\u003c")}</script>`;
      const source = String(html.source);
      if (!source.includes("</body>")) throw new Error("laterCode: index.html has no </body>");
      html.source = source.replace("</body>", `  ${block}\n  </body>`);
    },
  };
}
