// The attributes the launcher writes into a painted block (`paint.ts`) that the block's markup, rendered by the
// build, does not carry yet: the build keeps the stylesheet rules that select them (`build/launch-preload.ts`).
export const PAINTED_ATTRIBUTES = {
  /** A figure's exact amount and its currency, as the app's figure has them. */
  amount: "data-amount",
  currency: "data-currency",
  /** The bell's unread badge. */
  count: "data-count",
  /** `dark` for the dark look (telegram-ui's root). */
  appearance: "data-appearance",
  /** Inside Telegram: the client's platform. */
  telegram: "data-telegram",
} as const;
