/**
 * Integration test setup: whatever a test file opened and did not close is closed when the file
 * ends, so a forgotten `close()` can neither keep the run alive nor leak into the next file.
 */
import { afterAll } from "vitest";
import { closeOpenServers } from "./helpers";

afterAll(async () => {
  await closeOpenServers();
});
