/**
 * Account verification (docs/cabinet-rules.md#entities, #statuses-and-flows): its status and the request, a
 * multipart upload of the four fields and three photos with the 100 s timeout (docs/cabinet-rules.md#limits).
 * Keys start with `verification`.
 */
import {
  IMAGE_MAX_BYTES,
  IMAGE_MIME_TYPES,
  type ValidationCode,
  type VerificationFields,
  type VerificationFileField,
  VerificationState,
} from "@contract";
import { mutationOptions, queryOptions } from "@tanstack/react-query";
import { ApiError, callApi, uploadMultipart } from "@/lib/api-client";

const verificationKeys = { all: ["verification"] } as const;

export function photoIssue(file: File | null | undefined): ValidationCode | undefined {
  if (!file) return "required";
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) return "imageType";
  if (file.size > IMAGE_MAX_BYTES) return "imageSize";
  return undefined;
}

interface VerificationRequest {
  fields: VerificationFields;
  photos: Record<VerificationFileField, File>;
}

async function requestVerification({ fields, photos }: VerificationRequest): Promise<VerificationState> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, file] of Object.entries(photos)) form.append(name, file);
  const reply = await uploadMultipart("/user-data/verification", form);
  const checked = VerificationState.safeParse(reply);
  if (!checked.success)
    throw new ApiError({ kind: "parse", status: 200, body: reply, message: "verification reply does not match" });
  return checked.data;
}

export const verificationQueries = {
  state: () =>
    queryOptions({
      queryKey: [...verificationKeys.all, "state"] as const,
      queryFn: ({ signal }) => callApi("userDataVerification", { signal }),
    }),
};

export const verificationMutations = {
  request: () =>
    mutationOptions({
      mutationKey: [...verificationKeys.all, "request"],
      mutationFn: requestVerification,
      meta: { invalidates: [["profile"]] },
    }),
};
