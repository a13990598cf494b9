import { useQuery } from "@tanstack/react-query";
import { List, Section } from "@telegram-apps/telegram-ui";
import { useAtomValue } from "jotai";
import { type ReactNode, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { BrandHeader } from "@/components/brand-header";
import { LanguageSection } from "@/components/language-switcher";
import { lazyScreen } from "@/components/lazy-screen";
import { LinkCell } from "@/components/link-cell";
import { Page } from "@/components/page";
import { SpinnerScreen } from "@/components/spinner-screen";
import { paths, registerPath } from "@/config/paths";
import { LoginForm } from "@/features/auth/components/login-form";
import { OpenInTelegramCell, OpenInTelegramRoom } from "@/features/auth/components/open-in-telegram-cell";
import { prefilledLogin } from "@/features/auth/model/sign-in-again";
import { miniAppLink, settingsQueries } from "@/features/settings/api/settings-queries";
import type { FormError } from "@/lib/form/messages";
import { useLocation } from "@/lib/router";
import { expiredLoginAtom } from "@/lib/session";
import { useTelegram } from "@/tma/hooks";

// Only a launch inside Telegram downloads the Telegram sign-in.
const TelegramLogin = lazyScreen(() =>
  import("@/features/auth/components/telegram-login").then((m) => ({ default: m.TelegramLogin })),
);

/**
 * Why the login shows after a session timed out. The alert that says it lasts 3 s from the moment the
 * 401 came back, which on a slow phone can be before this screen's code has arrived: the form says it
 * too, until the user signs in again.
 */
const SESSION_TIMED_OUT: FormError = { message: { ns: "errors", key: "SESSION_TIMEOUT" } };

/** The product, the password form, what else the context offers (Telegram), links and the language. */
function PasswordSignIn({ notice = null, extra }: { notice?: FormError | null; extra?: ReactNode }) {
  const { t } = useTranslation(["auth", "common"]);
  const location = useLocation();
  // After a password reset the login comes with the navigation; after a session timeout, from the session.
  const expiredLogin = useAtomValue(expiredLoginAtom);
  return (
    <>
      <BrandHeader />
      <List>
        <LoginForm
          initialLogin={prefilledLogin(location.state) ?? expiredLogin ?? undefined}
          notice={notice ?? (expiredLogin ? SESSION_TIMED_OUT : null)}
        />
        {extra}
        <Section>
          <LinkCell to={registerPath()} description={t("login.noAccount")}>
            {t("login.register")}
          </LinkCell>
          <LinkCell to={paths.forgotPassword}>{t("login.forgotPassword")}</LinkCell>
        </Section>
        <LanguageSection header={t("language", { ns: "common" })} />
      </List>
    </>
  );
}

/**
 * The start screen. Inside Telegram with Telegram sign-in on, signing in is automatic (the form shows
 * only if that fails, or after a deliberate sign-out). Elsewhere: login and password, and on the web an
 * "Open in Telegram" link when Telegram sign-in is on.
 */
export function LoginRoute() {
  const { t } = useTranslation("auth");
  const inTelegram = useTelegram() !== null;
  const flag = useQuery(settingsQueries.telegramAuthAvailable());
  // A flag that cannot be read counts as off: the password form always works.
  const available = flag.isError ? false : flag.data?.available;
  const bot = useQuery({ ...settingsQueries.botUsername(), enabled: !inTelegram && available === true });

  return (
    <Page screen="login" title={t("login.title")} className="public-page">
      {inTelegram ? (
        <Suspense fallback={<SpinnerScreen />}>
          <TelegramLogin
            available={available}
            renderPasswordSignIn={(notice, telegramButton) => <PasswordSignIn notice={notice} extra={telegramButton} />}
          />
        </Suspense>
      ) : (
        <PasswordSignIn
          extra={
            available === true && bot.data ? (
              <Section>
                <OpenInTelegramCell href={miniAppLink(bot.data)} />
              </Section>
            ) : // Room for it while the flag (on by default) or the bot's name is on its way: what is below the form
            // keeps its place when the cell comes.
            flag.isPending || (available === true && bot.isPending) ? (
              <Section>
                <OpenInTelegramRoom />
              </Section>
            ) : null
          }
        />
      )}
    </Page>
  );
}
