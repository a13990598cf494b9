import { Button } from "@telegram-apps/telegram-ui";
import type { RefObject } from "react";
import { useMainButton } from "@/tma/hooks";

export interface FormSubmitProps {
  form: RefObject<HTMLFormElement | null>;
  text: string;
  pending: boolean;
  disabled?: boolean;
}

/**
 * The form's submit. Inside Telegram it is the Main button (with its loader while sending); on the web
 * a telegram-ui Button. Inside Telegram a hidden native submit stays so Enter on the keyboard submits.
 */
export function FormSubmit({ form, text, pending, disabled = false }: FormSubmitProps) {
  const inTelegram = useMainButton({
    text,
    loading: pending,
    enabled: !disabled,
    onClick: () => form.current?.requestSubmit(),
  });
  if (inTelegram) return <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true" />;
  return (
    <div className="form-actions">
      <Button type="submit" size="l" stretched loading={pending} disabled={disabled} data-testid="submit">
        {text}
      </Button>
    </div>
  );
}
