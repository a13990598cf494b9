/**
 * telegram-ui's `Select` with a real label on every platform (docs/decisions.md#accessibility): like `TextField`,
 * its label is a `<label for>` — in the frame's notch in the base look, above it in the iOS look — instead of
 * telegram-ui's header (an `h6` heading, and shown in the base look only).
 */
import { Select as TelegramSelect } from "@telegram-apps/telegram-ui";
import { type ComponentProps, useId } from "react";
import { FieldLabel } from "./text-field";

export function Select({ header, id: givenId, ...props }: ComponentProps<typeof TelegramSelect>) {
  const ownId = useId();
  const id = givenId ?? ownId;
  if (header === undefined || header === null) return <TelegramSelect id={id} {...props} />;
  return (
    <div className="form-field select-field">
      <FieldLabel htmlFor={id}>{header}</FieldLabel>
      <TelegramSelect id={id} {...props} />
    </div>
  );
}
