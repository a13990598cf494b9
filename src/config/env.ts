/**
 * Where the app finds the cabinet API. Build time wins (`VITE_API_URL`), then the runtime setting a
 * provider can edit in the served `index.html` (`<meta name="kassa:api-url" content="...">`), then `/api`
 * on the app's own origin, which is how `npm start` serves both.
 */
const DEFAULT_API_URL = "/api";
export const API_URL_META_NAME = "kassa:api-url";

export function resolveApiBaseUrl(
  buildTime: string | undefined = import.meta.env.VITE_API_URL,
  doc: Pick<Document, "querySelector"> | undefined = typeof document === "undefined" ? undefined : document,
): string {
  const fromMeta = doc?.querySelector<HTMLMetaElement>(`meta[name="${API_URL_META_NAME}"]`)?.content;
  const chosen = [buildTime, fromMeta].map((v) => v?.trim()).find((v) => v) ?? DEFAULT_API_URL;
  return chosen.replace(/\/+$/, "");
}
