/**
 * HTTP headers the app and the server share beyond the routes' schemas, without zod (the app's first chunk
 * imports this file: docs/architecture.md#how-a-launch-flows).
 */

/**
 * Read-your-writes across server instances (docs/architecture.md#read-your-writes): a successful write's reply
 * carries this header, the database's position after its commit; the app sends the highest one it has seen back
 * with each later call of the same session, and an instance that has not heard every change up to it catches up
 * before it answers.
 */
export const SEEN_HEADER = "Kassa-Seen";
