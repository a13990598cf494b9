import { Banner, Button } from "@telegram-apps/telegram-ui";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { getTelegramBridge } from "@/tma/bridge";
import { haptics } from "@/tma/hooks";
import "./home-screen-offer.css";

/** Set on this device once the offer was shown: it is made once, whatever the answer. */
export const HOME_SCREEN_OFFERED_KEY = "kassa.homeScreenOffered";

function wasOffered(): boolean {
  try {
    return localStorage.getItem(HOME_SCREEN_OFFERED_KEY) !== null;
  } catch {
    // No storage (a locked-down frame): never offering beats offering at every deposit.
    return true;
  }
}

/**
 * "Add to Home Screen" (Telegram's own prompt, Mini Apps 8.0), offered once on this device after a deposit was
 * opened, where the client offers it and says the app is not on the home screen yet. Nothing on the web or in
 * a client without it.
 */
export function HomeScreenOffer({ after }: { after: boolean }) {
  const { t } = useTranslation("deposits");
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const homeScreen = getTelegramBridge()?.homeScreen;
    if (!after || !homeScreen || wasOffered()) return;
    let live = true;
    void homeScreen.status().then((status) => {
      if (!live || status !== "missed" || wasOffered()) return;
      localStorage.setItem(HOME_SCREEN_OFFERED_KEY, new Date().toISOString());
      setShown(true);
    });
    return () => {
      live = false;
    };
  }, [after]);
  if (!shown) return null;
  const close = () => setShown(false);
  return (
    <Banner
      type="section"
      className="home-screen-offer"
      header={t("homeScreen.title")}
      description={t("homeScreen.text")}
      data-testid="home-screen-offer"
    >
      <Button
        size="s"
        onClick={() => {
          haptics.impact("light");
          getTelegramBridge()?.homeScreen?.add();
          close();
        }}
      >
        {t("homeScreen.add")}
      </Button>
      <Button size="s" mode="plain" onClick={close}>
        {t("homeScreen.later")}
      </Button>
    </Banner>
  );
}
