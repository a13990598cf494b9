import { List } from "@telegram-apps/telegram-ui";
import type { ReactNode } from "react";
import { Page } from "@/components/page";
import "./settings.css";

/**
 * A screen under Settings' list: its title (the cabinet's header shows it, with the way back to the list on
 * the web; inside Telegram the Back button leads there) and its sections.
 */
export function SettingsScreenFrame({
  screen,
  title,
  children,
}: {
  screen: string;
  title: string;
  children: ReactNode;
}) {
  return (
    // Every screen of Settings is the `settings` screen to the app's frame; `data-settings-screen` tells which.
    <Page screen="settings" title={title} data-settings-screen={screen}>
      <List>{children}</List>
    </Page>
  );
}
