import { Placeholder as TelegramPlaceholder } from "@telegram-apps/telegram-ui";
import type { ComponentProps } from "react";
import "./placeholder.css";

/**
 * telegram-ui's Placeholder, with a description that is valid markup on its own: telegram-ui puts a
 * lone description in a `<dl>` as a `<dd>` without its `<dt>`, which screen readers announce as a broken
 * list (axe: definition-list). Without a header the text is a paragraph, above the actions (retry).
 */
export function Placeholder({
  header,
  description,
  children,
  action,
  ...rest
}: ComponentProps<typeof TelegramPlaceholder>) {
  if (header || !description) {
    return (
      <TelegramPlaceholder header={header} description={description} action={action} {...rest}>
        {children}
      </TelegramPlaceholder>
    );
  }
  return (
    <TelegramPlaceholder
      {...rest}
      action={
        <>
          <p className="placeholder-text">{description}</p>
          {children}
          {action}
        </>
      }
    />
  );
}
