import type { HTMLAttributes, ReactNode } from "react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useMiniAppReady } from "@/tma/hooks";

export interface PageProps extends HTMLAttributes<HTMLDivElement> {
  /** A stable name of the screen (`data-screen`), for tests and styling. */
  screen: string;
  /** Goes into the document title. */
  title?: string;
  children: ReactNode;
}

/**
 * The frame of every screen: names it, titles the document, and tells Telegram the first screen is
 * ready once it has rendered.
 */
export function Page({ screen, title, children, className, ...rest }: PageProps) {
  const { t } = useTranslation();
  const appName = t("appName");
  useEffect(() => {
    document.title = title && title !== appName ? `${title} · ${appName}` : appName;
  }, [title, appName]);
  useMiniAppReady();
  return (
    <div data-screen={screen} className={className ? `page ${className}` : "page"} {...rest}>
      {children}
    </div>
  );
}
