/**
 * What the app may ask of Telegram, as a small interface. `boot.ts` (the only module that imports the
 * SDK, loaded only inside Telegram) fills it in; outside Telegram there is no bridge and the hooks in
 * `hooks.ts` do nothing.
 */
import type { BiometricLock } from "./token-store";

export type Appearance = "light" | "dark";
export type NotificationType = "success" | "error" | "warning";
export type HomeScreenStatus = "unsupported" | "unknown" | "added" | "missed";
export type ImpactStyle = "light" | "medium" | "heavy" | "rigid" | "soft";

export interface MainButtonParams {
  text?: string;
  isVisible?: boolean;
  isEnabled?: boolean;
  isLoaderVisible?: boolean;
}

export interface TelegramBridge {
  /** The client's platform from the launch parameters. */
  platform: string;
  /** Signed init data for `POST /auth/telegram`, if the client sent it. */
  rawInitData: string | undefined;
  startParam: string | undefined;
  /** Light or dark, from the theme's background; follows `theme_changed`. */
  appearance: { get(): Appearance; subscribe(listener: () => void): () => void };
  /** Tells the client the first screen is on, so it removes its loading placeholder. */
  ready(): void;
  backButton: { setVisible(visible: boolean): void; onClick(listener: () => void): () => void };
  mainButton: { set(params: MainButtonParams): void; onClick(listener: () => void): () => void };
  haptics: { notify(type: NotificationType): void; impact(style: ImpactStyle): void; selection(): void };
  /** Ask before the Mini App is closed (e.g. while a form has unsaved input). */
  setClosingConfirmation(enabled: boolean): void;
  /** A t.me link, opened by the client itself (the Mini App stays, except in Web A). */
  openTelegramLink(url: string): void;
  /** Telegram's `visibility_changed` (the WebApp API's `activated`): the Mini App is active again. */
  onActivated?(listener: () => void): () => void;
  /** Any other link, opened by the client in a browser; the Mini App stays where it is. */
  openLink(url: string): void;
  /**
   * Telegram's own download prompt for a file at an https `url` (Mini Apps 8.0+), resolved with the user's
   * answer: `downloading` (the client saves it), `cancelled`, or `unanswered` (no answer within
   * `DOWNLOAD_ANSWER_TIMEOUT_MS`); false when this client has no prompt, so the caller opens the link instead.
   */
  downloadFile?(url: string, fileName: string): Promise<"downloading" | "cancelled" | "unanswered" | false>;
  /**
   * Telegram's share sheet for `url`, when this client has one that keeps the Mini App open; false
   * otherwise (Web A closes the Mini App on every t.me link), so the caller offers a copy instead.
   */
  share(url: string, text: string): boolean;
  /** Vertical swipes may fold the Mini App (true) or only scroll it (false). */
  setVerticalSwipes(enabled: boolean): void;
  /**
   * Telegram's "Add to Home Screen" (Mini Apps 8.0), where the client offers it: `status()` asks whether the app
   * is on the home screen (`missed`: it is not and can be added; `unknown` when the client does not answer in
   * time), `add()` shows the client's own prompt.
   */
  homeScreen?: { status(): Promise<HomeScreenStatus>; add(): void };
  /**
   * Telegram's chat picker for a message the bot prepared (`web_app_send_prepared_message`, Mini Apps 8.0), where
   * the client has it: `sent` once the user sent it, `declined` when they closed the picker (or the client
   * refused), `unanswered` when no answer came within `PREPARED_MESSAGE_ANSWER_TIMEOUT_MS`.
   */
  sendPreparedMessage?(id: string): Promise<"sent" | "declined" | "unanswered">;
  /** The biometric lock of the kept session, on clients that may offer biometrics (Telegram's BiometricManager). */
  biometricLock?: BiometricLock;
}

let bridge: TelegramBridge | null = null;

export function setTelegramBridge(next: TelegramBridge | null): void {
  bridge = next;
}

export function getTelegramBridge(): TelegramBridge | null {
  return bridge;
}

export function isInsideTelegram(): boolean {
  return bridge !== null;
}
