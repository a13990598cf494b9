/** Password change, the code channel and the chat notifications switch (Settings → security). Keys start with `security`. */
import type { ChangePasswordBody, CodeChannel } from "@contract";
import { mutationOptions, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";

export const securityKeys = { all: ["security"] } as const;

export const securityQueries = {
  settings: () =>
    queryOptions({
      queryKey: [...securityKeys.all, "settings"] as const,
      queryFn: ({ signal }) => callApi("securitySettings", { signal }),
    }),
};

export const securityMutations = {
  changePassword: () =>
    mutationOptions({
      mutationKey: [...securityKeys.all, "password"],
      mutationFn: (body: ChangePasswordBody) => callApi("changePassword", { body }),
    }),
  setChannel: () =>
    mutationOptions({
      mutationKey: [...securityKeys.all, "channel"],
      mutationFn: (codeChannel: CodeChannel) => callApi("updateSecuritySettings", { body: { codeChannel } }),
      meta: { invalidates: [securityKeys.all, ["profile"]] },
    }),
  /** A code to the e-mail only, which confirms it as a channel. */
  requestEmailCode: () =>
    mutationOptions({
      mutationKey: [...securityKeys.all, "email-code"],
      mutationFn: () => callApi("requestEmailCode", {}),
    }),
  /** The e-mail's code: the e-mail is confirmed; the reply is the security settings. */
  confirmEmail: () =>
    mutationOptions({
      mutationKey: [...securityKeys.all, "email-confirm"],
      mutationFn: (code: string) => callApi("confirmEmail", { body: { code } }),
      meta: { invalidates: [securityKeys.all, ["profile"]] },
    }),
  /** A one-time link that opens the bot and links this account to Telegram. */
  createTelegramLink: () =>
    mutationOptions({
      mutationKey: [...securityKeys.all, "telegram-link"],
      mutationFn: () => callApi("createTelegramLink", {}),
    }),
  setChatNotifications: () =>
    mutationOptions({
      mutationKey: [...securityKeys.all, "chat"],
      mutationFn: (chatNotifications: boolean) => callApi("updateSecuritySettings", { body: { chatNotifications } }),
    }),
};
