/** Entry of `npm run kassa -- <command>`; the commands are in program.ts. */
import { runCli } from "./program";

// Exit explicitly: an idle keep-alive connection to the server must not hold the command open.
process.exit(await runCli(process.argv));
