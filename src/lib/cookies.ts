/** Minimal cookie access for the refresh token (spec §3: it is kept in a cookie). */
export function readCookie(name: string, source: string = document.cookie): string | undefined {
  for (const part of source.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export interface CookieOptions {
  maxAgeSeconds?: number;
  secure?: boolean;
}

export function cookieString(name: string, value: string, options: CookieOptions = {}): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", "SameSite=Lax"];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

export function writeCookie(name: string, value: string, options: CookieOptions = {}): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the refresh token lives in a first-party cookie by spec §3; the Cookie Store API is missing in Telegram's iOS webview.
  document.cookie = cookieString(name, value, options);
}

export function deleteCookie(name: string, options: Omit<CookieOptions, "maxAgeSeconds"> = {}): void {
  writeCookie(name, "", { ...options, maxAgeSeconds: 0 });
}

export function isSecureContextUrl(): boolean {
  return typeof window !== "undefined" && window.location.protocol === "https:";
}
