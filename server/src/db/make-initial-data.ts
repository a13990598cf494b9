/**
 * The build's step that makes a new PGlite database's ready copy (initial-data.ts), run as a process of its
 * own so that initdb's memory is given back when it exits.
 */
import path from "node:path";
import { makeInitialData } from "./initial-data";

const file = await makeInitialData();
console.log(`[kassa] a new PGlite database's copy: ${path.relative(process.cwd(), file)}`);
