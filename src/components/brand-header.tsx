import { Text, Title } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { KassaMark } from "./kassa-mark";

/**
 * The product's mark, name and what it is: the heading of the public screens; beside a cabinet screen (the side
 * bar) the name is no heading, the screen's title being its one `h1`.
 */
export function BrandHeader({ tagline = true, heading = true }: { tagline?: boolean; heading?: boolean }) {
  const { t } = useTranslation();
  return (
    <header className="brand-header">
      <KassaMark size={64} />
      <Title level="1" weight="1" Component={heading ? "h1" : "p"}>
        {t("appName")}
      </Title>
      {tagline ? (
        <Text className="brand-tagline" data-testid="tagline">
          {t("tagline")}
        </Text>
      ) : null}
    </header>
  );
}
