// The attributes the launcher writes into a painted block (`paint.ts`) that the block's markup, as rendered, does
// not carry: the build keeps the stylesheet rules that select them (`build/launch-preload.ts`).
export const PAINTED_ATTRIBUTES = {
  /** `dark` for the dark look (telegram-ui's root), on the login's header rendered in the light one. */
  appearance: "data-appearance",
  /** Inside Telegram: the client's platform. */
  telegram: "data-telegram",
} as const;
