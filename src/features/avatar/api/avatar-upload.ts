/** `PATCH /user/avatar`: one JPEG or PNG of at most 5 MB in the multipart field `avatar`. */
import { AVATAR_FILE_FIELD, AvatarReply, IMAGE_MAX_BYTES, IMAGE_MIME_TYPES, type ValidationCode } from "@contract";
import { mutationOptions } from "@tanstack/react-query";
import { ApiError, uploadMultipart } from "@/lib/api-client";

/** The image's type and size (docs/cabinet-rules.md#field-rules), checked before anything is sent. */
export function imageFileIssue(file: File | null | undefined): ValidationCode | undefined {
  if (!file) return "required";
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) return "imageType";
  if (file.size > IMAGE_MAX_BYTES) return "imageSize";
  return undefined;
}

async function uploadAvatar(file: File): Promise<AvatarReply> {
  const form = new FormData();
  form.append(AVATAR_FILE_FIELD, file);
  const reply = await uploadMultipart("/user/avatar", form);
  const checked = AvatarReply.safeParse(reply);
  if (!checked.success)
    throw new ApiError({ kind: "parse", status: 200, body: reply, message: "PATCH /user/avatar reply does not match" });
  return checked.data;
}

export const avatarMutations = {
  upload: () =>
    mutationOptions({
      mutationKey: ["avatar", "upload"],
      mutationFn: uploadAvatar,
      meta: { invalidates: [["profile"]] },
    }),
};
