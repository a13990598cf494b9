/**
 * The news bodies' HTML allow-list (sanitize-html): p, br, strong, em, ul, ol, li, h3, and a with
 * an http(s) href only, which gets rel="noopener noreferrer" and target="_blank". Every other
 * tag is dropped (its text kept), except script, style, iframe, object, embed, noscript and
 * textarea, whose content goes too; every other attribute (event handlers, style, class, id) is
 * dropped; javascript:, data:, vbscript: and relative hrefs are removed.
 */
import { createRequire } from "node:module";
import { NEWS_ALLOWED_TAGS } from "@contract";
import type SanitizeHtml from "sanitize-html";

/**
 * sanitize-html is required at the first news read or write, not when the server starts: loading it
 * (and its HTML parser) cost about 100 ms of every start, and most starts serve no news for a while.
 */
let loaded: typeof SanitizeHtml | undefined;
function sanitizeHtml(html: string, options: SanitizeHtml.IOptions): string {
  loaded ??= createRequire(import.meta.url)("sanitize-html") as typeof SanitizeHtml;
  return loaded(html, options);
}

const OPTIONS: SanitizeHtml.IOptions = {
  allowedTags: [...NEWS_ALLOWED_TAGS],
  allowedAttributes: { a: ["href", "rel", "target"] },
  allowedSchemes: ["http", "https"],
  allowedSchemesByTag: { a: ["http", "https"] },
  allowProtocolRelative: false,
  allowedSchemesAppliedToAttributes: ["href"],
  disallowedTagsMode: "discard",
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "iframe", "object", "embed", "template"],
  transformTags: {
    a: (tagName, attribs) => {
      const href = attribs.href ?? "";
      const safe = /^https?:\/\//i.test(href.trim());
      const kept: Record<string, string> = safe
        ? { href: href.trim(), rel: "noopener noreferrer", target: "_blank" }
        : {};
      return { tagName, attribs: kept };
    },
  },
};

export function sanitizeNewsHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/**
 * Plain text for titles: every tag removed, and the text itself as written. Titles are shown as
 * text (React escapes them), never as HTML, so `Fish & Chips` must stay `Fish & Chips`: the three
 * entities sanitize-html writes for text are turned back into their characters.
 */
export function plainText(text: string): string {
  return sanitizeHtml(text, { allowedTags: [], allowedAttributes: {} })
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
