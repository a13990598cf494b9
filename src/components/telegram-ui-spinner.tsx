// telegram-ui's Spinner as a module of its own, which `content-spinner.tsx` loads when it first shows one.
export { Spinner as default } from "@telegram-apps/telegram-ui";
