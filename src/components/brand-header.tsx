import { Text, Title } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { KassaMark } from "./kassa-mark";

/** The product's mark, name and what it is, on the public screens. */
export function BrandHeader({ tagline = true }: { tagline?: boolean }) {
  const { t } = useTranslation();
  return (
    <header className="brand-header">
      <KassaMark size={64} />
      <Title level="1" weight="1" Component="h1">
        {t("appName")}
      </Title>
      {tagline ? <Text className="brand-tagline">{t("tagline")}</Text> : null}
    </header>
  );
}
