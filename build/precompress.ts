// Writes a Brotli and a gzip copy beside every built text file they make smaller, for the server to send as they are.

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";
import { clientBuild } from "./client-build.ts";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
/** What compresses: text. Images and fonts in the build are already compressed formats. */
const COMPRESSIBLE = /\.(js|css|svg|json|txt)$/;

/**
 * Each file under the build's `assets/` and the page itself (`index.html`, which every launch and every route of the
 * app is answered with) at the best compression once at build time (Brotli quality 11, gzip level 9), instead of at
 * every request at a level fast enough for a reply (Brotli 4): a phone downloads fewer bytes and the server spends
 * no CPU compressing the app's files (`preCompressed` in server/src/plugins/static-app.ts). The page's headers are
 * the server's, whichever copy it sends. A copy is written when it is smaller than the file, whatever the file's
 * size: the server never compresses the app's files itself (server/src/plugins/security.ts), so a small chunk with
 * no copy goes as it is (a few dozen bytes, where compression's own header costs more than it saves).
 */
export const precompress: Plugin = {
  name: "kassa:precompress",
  apply: clientBuild,
  async writeBundle(options, bundle) {
    const dir = options.dir ?? "dist";
    const written = Object.values(bundle).map((file) => {
      const bytes = file.type === "chunk" ? Buffer.from(file.code) : Buffer.from(file.source);
      return { name: file.fileName, bytes };
    });
    await Promise.all(
      written
        .filter(({ name }) => name === "index.html" || (name.startsWith("assets/") && COMPRESSIBLE.test(name)))
        .map(async ({ name, bytes }) => {
          const [br, gzipped] = await Promise.all([
            brotli(bytes, {
              params: {
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
            gz(bytes, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          const file = join(dir, name);
          await Promise.all(
            Object.entries({ ".br": br, ".gz": gzipped })
              .filter(([, copy]) => copy.length < bytes.length)
              .map(([suffix, copy]) => writeFile(`${file}${suffix}`, copy)),
          );
        }),
    );
  },
};
