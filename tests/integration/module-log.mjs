// Given to a server under test with `node --import`: writes one line, `[module] <url>`, for every module the
// process loads (ES modules and CommonJS alike, Node's own `node:` ones left out), so a test reads what a start
// loaded. Node's NODE_DEBUG=module,esm log said the same in about 40 MB of objects per start.
import { registerHooks } from "node:module";

registerHooks({
  load(url, context, nextLoad) {
    if (!url.startsWith("node:")) process.stderr.write(`[module] ${url}\n`);
    return nextLoad(url, context);
  },
});
