/**
 * Settings data (docs/cabinet-rules.md#entities): the profile, its update (a new phone waits for a code) and the
 * phone change confirmation. Keys start with `profile`.
 */
import type { PhoneChangeConfirmBody, ProfileUpdateBody } from "@contract";
import { mutationOptions, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";

export const profileKeys = { all: ["profile"] } as const;

export const profileQueries = {
  profile: () =>
    queryOptions({
      queryKey: [...profileKeys.all, "data"] as const,
      queryFn: ({ signal }) => callApi("userData", { signal }),
    }),
};

export const profileMutations = {
  update: () =>
    mutationOptions({
      mutationKey: [...profileKeys.all, "update"],
      mutationFn: (body: ProfileUpdateBody) => callApi("updateUserData", { body }),
      meta: { invalidates: [profileKeys.all] },
    }),
  confirmPhone: () =>
    mutationOptions({
      mutationKey: [...profileKeys.all, "confirm-phone"],
      mutationFn: (body: PhoneChangeConfirmBody) => callApi("confirmPhoneChange", { body }),
      meta: { invalidates: [profileKeys.all] },
    }),
};
