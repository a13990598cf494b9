/**
 * telegram-ui's `Select` with its label on every platform (docs/decisions.md#accessibility): like `Input`, it
 * shows its `header` only in the base look, so in the iOS look (iOS and macOS clients) the label is shown above
 * it, as `TextField` does, and the select is named by it (`aria-label`) either way.
 */
import { Select as TelegramSelect } from "@telegram-apps/telegram-ui";
import type { ComponentProps } from "react";
import { useUiPlatform } from "@/tma/hooks";

export function Select({ header, ...props }: ComponentProps<typeof TelegramSelect>) {
  const ios = useUiPlatform() === "ios";
  const label = typeof header === "string" ? header : undefined;
  if (!ios || label === undefined) return <TelegramSelect header={header} aria-label={label} {...props} />;
  return (
    <div className="select-field">
      <span className="field-label" aria-hidden="true">
        {label}
      </span>
      <TelegramSelect header={header} aria-label={label} {...props} />
    </div>
  );
}
