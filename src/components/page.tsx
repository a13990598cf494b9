import type { ComponentType, HTMLAttributes, ReactNode } from "react";
import { createContext, useContext, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useMiniAppReady } from "@/tma/hooks";

/** What a screen's header shows: the title (or what stands for it), and the screen's own actions beside it. */
export interface PageHeaderProps {
  title?: string;
  /** Shown as the screen's heading instead of `title`; `null`: the screen shows its own `h1`. */
  heading?: ReactNode;
  actions?: ReactNode;
}

/**
 * The frame a screen sits in draws its header (the cabinet's: the title as the screen's one `h1`, the way back
 * on the web, the notification bell); public screens have none and show their own heading.
 */
export const PageHeaderContext = createContext<ComponentType<PageHeaderProps> | null>(null);

export interface PageProps extends HTMLAttributes<HTMLDivElement>, Omit<PageHeaderProps, "title"> {
  /** A stable name of the screen (`data-screen`), for tests and styling. */
  screen: string;
  /** The screen's title: in the document title, and in the cabinet the screen's heading. */
  title?: string;
  children: ReactNode;
}

/**
 * The frame of every screen: names it, titles the document (and, in the cabinet, the screen), and tells
 * Telegram the first screen is ready once it has rendered.
 */
export function Page({ screen, title, heading, actions, children, className, ...rest }: PageProps) {
  const { t } = useTranslation();
  const appName = t("appName");
  const Header = useContext(PageHeaderContext);
  useEffect(() => {
    document.title = title && title !== appName ? `${title} · ${appName}` : appName;
  }, [title, appName]);
  useMiniAppReady();
  return (
    <div data-screen={screen} className={className ? `page ${className}` : "page"} {...rest}>
      {Header ? <Header title={title} heading={heading} actions={actions} /> : null}
      {children}
    </div>
  );
}
