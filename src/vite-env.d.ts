/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the cabinet API lives; the runtime `<meta name="kassa:api-url">` and `/api` come after it. */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
