import { NEWS_ALLOWED_TAGS } from "@contract";
import DOMPurify from "dompurify";
import { type MouseEvent, useMemo } from "react";
import { useTelegram } from "@/tma/hooks";
import { openExternalLink } from "@/tma/links";

/**
 * A news body. The server sanitises it already; the same allow-list runs here again before the HTML
 * reaches the page, so a mistake on one side alone cannot inject markup.
 *
 * Its links never navigate the app itself away: inside Telegram they open through the client
 * (`openTelegramLink` for t.me, `openLink` for the rest), on the web in a new tab.
 */
export function NewsBody({ html }: { html: string }) {
  const telegram = useTelegram();
  const clean = useMemo(
    () =>
      DOMPurify.sanitize(html, {
        ALLOWED_TAGS: [...NEWS_ALLOWED_TAGS],
        ALLOWED_ATTR: ["href", "rel", "target"],
        ALLOWED_URI_REGEXP: /^https?:/i,
      }),
    [html],
  );
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const anchor = (event.target as Element | null)?.closest?.("a[href]");
    if (!anchor || event.defaultPrevented) return;
    // On the web a modified click (new window, new tab) is the browser's.
    if (!telegram && (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)) return;
    if (openExternalLink(anchor.getAttribute("href") ?? "")) event.preventDefault();
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the clicks come from the links inside, which keyboards activate as clicks
    <div
      className="news-body"
      data-testid="news-body"
      onClick={onClick}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify just above
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
