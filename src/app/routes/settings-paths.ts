/**
 * The screens under Settings' list, each at `/settings/<screen>` (`paths.settingsScreen`), in the list's order.
 * Kept out of `config/paths.ts`, which the first screen downloads: only Settings' own code needs them.
 */
const SETTINGS_SCREENS = [
  "profile",
  "security",
  "password",
  "wallets",
  "verification",
  "subscription",
  "notifications",
  "language",
] as const;
export type SettingsScreen = (typeof SETTINGS_SCREENS)[number];

export function isSettingsScreen(value: unknown): value is SettingsScreen {
  return typeof value === "string" && (SETTINGS_SCREENS as readonly string[]).includes(value);
}

export function settingsPath(screen: SettingsScreen): string {
  return `/settings/${screen}`;
}
