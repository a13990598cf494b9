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
export function laterCode(modules) {
  return {
    name: "kassa:later-code",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const html = bundle["index.html"];
      if (html?.type !== "asset") return;
      const chunks = Object.values(bundle).filter((file) => file.type === "chunk");
      const entry = chunks.find((chunk) => chunk.isEntry);
      const loaded = new Set(entry ? [entry.fileName, ...entry.imports] : []);
      /** @type {Record<string, { code: string[], css: string[] }>} */
      const files = {};
      for (const [key, pattern] of Object.entries(modules)) {
        const root =
          chunks.find((chunk) => chunk.facadeModuleId && pattern.test(chunk.facadeModuleId)) ??
          chunks.find((chunk) => chunk.moduleIds.some((id) => pattern.test(id)));
        if (!root) throw new Error(`laterCode: no chunk holds ${pattern} (${key})`);
        const code = new Set();
        const css = new Set();
        const visit = (fileName) => {
          const chunk = bundle[fileName];
          if (chunk?.type !== "chunk" || loaded.has(fileName) || code.has(fileName)) return;
          code.add(fileName);
          for (const file of chunk.viteMetadata?.importedCss ?? []) css.add(file);
          for (const file of chunk.imports) visit(file);
        };
        visit(root.fileName);
        files[key] = { code: [...code], css: [...css] };
      }
      const block = `<script type="application/json" id="kassa-later-code">${JSON.stringify(files).replace(/</g, "\\u003c")}</script>`;
      const source = String(html.source);
      if (!source.includes("</body>")) throw new Error("laterCode: index.html has no </body>");
      html.source = source.replace("</body>", `  ${block}\n  </body>`);
    },
  };
}
