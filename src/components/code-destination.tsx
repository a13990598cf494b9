import type { CodeSentReply } from "@contract";
import { useTranslation } from "react-i18next";
import "./code-destination.css";

/**
 * Where the code really went, as the server's reply says: Telegram, e-mail or SMS, with the masked
 * address. Without a channel (the password reset, whose reply must not tell whether the login exists)
 * it names the three channels the account's security setting chooses from.
 */
export function CodeDestination({
  sent,
  signedIn = false,
}: {
  sent: Pick<CodeSentReply, "channel" | "destination"> | null | undefined;
  /** The code is the signed-in user's own (no doubt the account exists). */
  signedIn?: boolean;
}) {
  const { t } = useTranslation("codes");
  const channel = sent?.channel;
  const text = !channel
    ? t(signedIn ? "sent.yours" : "sent.unknown")
    : sent?.destination
      ? t(`sent.${channel}To`, { destination: sent.destination })
      : t(`sent.${channel}`);
  return (
    <p className="code-destination" data-testid="code-destination" data-channel={channel ?? "unknown"}>
      {text}
    </p>
  );
}
