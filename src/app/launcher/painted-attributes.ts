// The attributes a painted block wears in values the build's renders do not all show: the build keeps every
// stylesheet rule that selects them (`build/launch-preload.ts`).
export const PAINTED_ATTRIBUTES = {
  /** Inside Telegram: the client's platform, as the server renders it (`first-screen.tsx`). */
  telegram: "data-telegram",
} as const;
