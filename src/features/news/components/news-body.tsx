import { NEWS_ALLOWED_TAGS } from "@contract";
import DOMPurify from "dompurify";
import { useMemo } from "react";

/**
 * A news body. The server sanitises it already; the same allow-list runs here again before the HTML
 * reaches the page, so a mistake on one side alone cannot inject markup.
 */
export function NewsBody({ html }: { html: string }) {
  const clean = useMemo(
    () =>
      DOMPurify.sanitize(html, {
        ALLOWED_TAGS: [...NEWS_ALLOWED_TAGS],
        ALLOWED_ATTR: ["href", "rel", "target"],
        ALLOWED_URI_REGEXP: /^https?:/i,
      }),
    [html],
  );
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify just above
  return <div className="news-body" data-testid="news-body" dangerouslySetInnerHTML={{ __html: clean }} />;
}
