/**
 * Account verification (docs/cabinet-rules.md: entities, statuses and flows, field rules) and the image rules the
 * avatar shares: JPEG or PNG by content, at most 5 MB, one file per field.
 */
import * as z from "zod/mini";
import { deferred } from "./deferred";
import { VerificationStatus } from "./enums";
import { requiredText } from "./validation";

/** At most 5 MB per image (docs/cabinet-rules.md#limits). */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** JPEG and PNG (docs/cabinet-rules.md#limits). */
export const IMAGE_MIME_TYPES = ["image/jpeg", "image/png"] as const;
/** The verification upload's timeout (docs/cabinet-rules.md#limits). */
export const VERIFICATION_UPLOAD_TIMEOUT_MS = 100_000;

/** The multipart file field of `PATCH /user/avatar`. */
export const AVATAR_FILE_FIELD = "avatar";
/** The multipart file fields of `PATCH /user-data/verification`, one file each. */
export const VERIFICATION_FILE_FIELDS = ["documentPhoto", "loginPhoto", "walletPhoto"] as const;
export type VerificationFileField = (typeof VERIFICATION_FILE_FIELDS)[number];

export const FAMILY_STATUSES = ["single", "married", "divorced", "widowed"] as const;
export const FamilyStatus = deferred(() => z.enum(FAMILY_STATUSES));
export type FamilyStatus = z.infer<typeof FamilyStatus>;

/** Adults only. */
export const VERIFICATION_MIN_AGE_YEARS = 18;

/** Whole years between an ISO date of birth and `now` (UTC). */
export function ageInYears(dateOfBirth: string, now: Date): number {
  const [y, m, d] = dateOfBirth.split("-").map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - y;
  const beforeBirthday = now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

/** The text fields of the verification form (multipart fields). */
export const VerificationFields = deferred(() =>
  z.object({
    fullName: requiredText().check(z.maxLength(200)),
    /** ISO date (YYYY-MM-DD), an adult's. */
    dateOfBirth: z.pipe(requiredText(), z.iso.date({ error: "required" })),
    familyStatus: FamilyStatus,
    documentNumber: requiredText().check(z.maxLength(64), z.regex(/^[A-Za-z0-9 -]+$/, { error: "required" })),
  }),
);
export type VerificationFields = z.infer<typeof VerificationFields>;

/** `GET /user-data/byType/verification` and the reply of `PATCH /user-data/verification`. */
export const VerificationState = deferred(() =>
  z.object({
    /** Null when never requested. */
    status: z.nullable(VerificationStatus),
    fullName: z.nullable(z.string()),
    dateOfBirth: z.nullable(z.string()),
    familyStatus: z.nullable(FamilyStatus),
    documentNumber: z.nullable(z.string()),
    submittedAt: z.nullable(z.string()),
    decidedAt: z.nullable(z.string()),
    /** The operator's note when denied. */
    note: z.nullable(z.string()),
  }),
);
export type VerificationState = z.infer<typeof VerificationState>;
