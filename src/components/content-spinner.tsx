import { Spinner } from "@telegram-apps/telegram-ui";

/** A screen's place while its code and texts load; a download that failed meanwhile is said at once (its class). */
export function ContentSpinner() {
  return (
    <div className="spinner-screen" role="status" aria-live="polite">
      <Spinner size="l" />
    </div>
  );
}
