// Writes a Brotli and a gzip copy beside every built file worth compressing, for the server to send as they are.

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
/** Below this a compressed copy saves less than a packet (the server's own threshold for compressing replies). */
const MIN_BYTES = 1024;

/**
 * Each file under the build's `assets/` and the page itself (`index.html`, which every launch and every route of the
 * app is answered with) at the best compression once at build time (Brotli quality 11, gzip level 9), instead of at
 * every request at a level fast enough for a reply (Brotli 4): a phone downloads fewer bytes and the server spends
 * no CPU compressing the app's files (`preCompressed` in server/src/plugins/static-app.ts). The page's headers are
 * the server's, whichever copy it sends.
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
        .filter(
          ({ name, bytes }) =>
            (name === "index.html" || (name.startsWith("assets/") && COMPRESSIBLE.test(name))) &&
            bytes.length >= MIN_BYTES,
        )
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
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
        }),
    );
  },
};
