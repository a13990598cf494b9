/** Minimal cookie access for the refresh token (kept in a cookie on the web, docs/cabinet-rules.md#sessions). */
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
  /**
   * For a page framed by another site (Telegram Web hosts Mini Apps in a cross-site iframe): browsers
   * drop `SameSite=Lax` cookies there, and with third-party cookies blocked keep only partitioned
   * ones (CHIPS). Such a cookie is `SameSite=None; Secure; Partitioned`: kept for this app under that
   * top-level site only. Needs a secure context (https, or localhost).
   */
  crossSite?: boolean;
}

export function cookieString(name: string, value: string, options: CookieOptions = {}): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/"];
  parts.push(options.crossSite ? "SameSite=None" : "SameSite=Lax");
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  if (options.secure || options.crossSite) parts.push("Secure");
  if (options.crossSite) parts.push("Partitioned");
  return parts.join("; ");
}

export function writeCookie(name: string, value: string, options: CookieOptions = {}): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the refresh token lives in a first-party cookie (docs/cabinet-rules.md#sessions); the Cookie Store API is missing in Telegram's iOS webview.
  document.cookie = cookieString(name, value, options);
}

export function deleteCookie(name: string, options: Omit<CookieOptions, "maxAgeSeconds"> = {}): void {
  writeCookie(name, "", { ...options, maxAgeSeconds: 0 });
}

/** Framed by another page (Telegram Web's iframe), where a first-party `SameSite=Lax` cookie is lost. */
export function isFramed(win: Window = window): boolean {
  try {
    return win.self !== win.top;
  } catch {
    return true;
  }
}

export function isSecureContextUrl(): boolean {
  return typeof window !== "undefined" && window.location.protocol === "https:";
}
