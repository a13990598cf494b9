/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the cabinet API lives; the runtime `<meta name="kassa:api-url">` and `/api` come after it. */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** The entry chunk's texts for a failed download of the translations (`build/fallback-texts.ts`). */
declare module "virtual:kassa-fallback-texts" {
  const texts: Record<import("@contract").Language, Record<import("@/config/fallback-keys").FallbackKey, string>>;
  export default texts;
}
