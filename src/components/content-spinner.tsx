import { Spinner } from "@telegram-apps/telegram-ui";

/** Loading state inside a screen. */
export function ContentSpinner() {
  return (
    <div className="spinner-screen" role="status" aria-live="polite">
      <Spinner size="l" />
    </div>
  );
}
