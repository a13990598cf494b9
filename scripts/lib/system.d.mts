/** Types of system.mjs: the Debian packages the tests need beyond npm. */
export const CHROMIUM_PATH: string;
export const CHROMIUM_ARGS: string[];
export const PLAYWRIGHT_DISABLED_FEATURES: string[];
export function disabledFeaturesSwitch(keep?: string[]): string;
export const PHONE_CONTEXT: {
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
  locale: string;
};
export const NGINX_PATH: string;
export function findPostgresBin(): string | null;
export function ensureSystemPackages(options?: { needPostgres?: boolean }): void;
