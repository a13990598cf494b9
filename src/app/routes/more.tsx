import { List, Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { LanguageSection } from "@/components/language-switcher";
import { Page } from "@/components/page";
import { BotLinkCell, LogoutCell, MORE_ITEMS, NavCells } from "../layouts/navigation";

/** The tab bar's "More": the entries that do not fit in it, the chat bot, language and logout. */
export function MoreRoute() {
  const { t } = useTranslation(["nav", "common"]);
  return (
    <Page screen="more" title={t("more")}>
      <List>
        <Section>
          <NavCells items={MORE_ITEMS} />
          <BotLinkCell />
        </Section>
        <LanguageSection header={t("language", { ns: "common" })} />
        <Section>
          <LogoutCell />
        </Section>
      </List>
    </Page>
  );
}
