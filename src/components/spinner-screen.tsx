/**
 * The spinner shown before the first screen (the route and its translations loading). Drawn in CSS:
 * telegram-ui's Spinner ships six SVG variants (~3 KB gzip) the first screen would otherwise download
 * just to show this for a moment. Screens use telegram-ui's Spinner (`ContentSpinner`).
 */
export function SpinnerScreen({ label }: { label?: string }) {
  return (
    <div className="spinner-screen" role="status" aria-live="polite" aria-label={label}>
      <span className="boot-spinner" />
    </div>
  );
}
