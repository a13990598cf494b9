/** The product mark (same drawing as the favicon). */
export function KassaMark({ size = 72 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="16" fill="var(--tgui--button_color, #2481cc)" />
      <path
        d="M22 18v28M22 32l14-14M27 27l11 19"
        stroke="var(--tgui--button_text_color, #fff)"
        strokeWidth="5"
        strokeLinecap="round"
        strokeLinejoin="round"
        fill="none"
      />
    </svg>
  );
}
