/**
 * Avatar and account verification (docs/cabinet-rules.md: entities, statuses, field rules). The avatar replaces
 * the previous file; a verification request stores its three photos and waits `in_process` until the operator
 * approves (`success`) or denies (`denied`) it, which also notifies the user.
 */
import {
  ageInYears,
  FamilyStatus,
  VERIFICATION_FILE_FIELDS,
  VERIFICATION_MIN_AGE_YEARS,
  VerificationFields,
  type VerificationState,
  VerificationStatus,
} from "@contract";
import { and, desc, eq } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { userChanging } from "../db/change-feed";
import type { Database } from "../db/client";
import { users, verificationRequests } from "../db/schema";
import { AppError } from "../errors";
import { isUuid } from "./deposit-rows";
import { notify } from "./notifications";
import type { ParsedUpload } from "./uploads";
import { AVATAR_FOLDER, removeImage, replaceImage, storeImage, VERIFICATION_FOLDER } from "./uploads";
import { lockUser } from "./users";

export { AVATAR_FOLDER };

type RequestRow = typeof verificationRequests.$inferSelect;

function toState(row: RequestRow | undefined): VerificationState {
  if (!row) {
    return {
      status: null,
      fullName: null,
      dateOfBirth: null,
      familyStatus: null,
      documentNumber: null,
      submittedAt: null,
      decidedAt: null,
      note: null,
    };
  }
  return {
    status: VerificationStatus.parse(row.status),
    fullName: row.fullName,
    dateOfBirth: row.dateOfBirth,
    familyStatus: FamilyStatus.parse(row.familyStatus),
    documentNumber: row.documentNumber,
    submittedAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    note: row.note,
  };
}

async function latestRequest(db: Database, userId: string): Promise<RequestRow | undefined> {
  const [row] = await db
    .select()
    .from(verificationRequests)
    .where(eq(verificationRequests.userId, userId))
    .orderBy(desc(verificationRequests.createdAt))
    .limit(1);
  return row;
}

export async function getVerification(db: Database, userId: string): Promise<VerificationState> {
  return toState(await latestRequest(db, userId));
}

/**
 * Stores the avatar under a new random name, points the user at it under the user's row lock, and
 * only then removes the file it replaced: of parallel uploads each removes the one before it, and
 * the last one's file is the only one left.
 */
export async function setAvatar(
  deps: Pick<ServiceContext, "db" | "env">,
  userId: string,
  upload: ParsedUpload,
): Promise<typeof users.$inferSelect> {
  const file = upload.files.get("avatar");
  if (!file) throw new AppError("IMAGE_UPDATE_FAILED", { params: { reason: "missing" } });
  return replaceImage(deps.env.UPLOAD_DIR, AVATAR_FOLDER, file, (name) =>
    deps.db.transaction(async (tx) => {
      const before = await lockUser(tx, userId);
      if (!before) throw new AppError("SESSION_TIMEOUT");
      userChanging(userId);
      const [row] = await tx.update(users).set({ avatarFile: name }).where(eq(users.id, userId)).returning();
      if (!row) throw new AppError("SESSION_TIMEOUT");
      return { replaced: before.avatarFile, result: row };
    }),
  );
}

const requestFailed = (reason: string, fields?: Record<string, "required" | "imageType" | "imageSize">) =>
  new AppError("VERIFICATION_REQUEST_FAILED", { params: { reason }, ...(fields ? { fields } : {}) });

/**
 * `PATCH /user-data/verification`: the form's fields (an adult's ISO date of birth, a known family
 * status) and exactly one image in each photo field. A request already `in_process` or a
 * verified account cannot send another (VERIFICATION_REQUEST_FAILED, reason `in_process` /
 * `verified`); a denied one may.
 */
export async function requestVerification(
  deps: Pick<ServiceContext, "db" | "clock" | "env">,
  userId: string,
  upload: ParsedUpload,
): Promise<VerificationState> {
  const parsed = VerificationFields.safeParse(upload.fields);
  if (!parsed.success) {
    const fields: Record<string, "required"> = {};
    for (const issue of parsed.error.issues) fields[issue.path.join(".") || "body"] = "required";
    throw requestFailed("fields", fields);
  }
  const now = deps.clock.now();
  if (ageInYears(parsed.data.dateOfBirth, now) < VERIFICATION_MIN_AGE_YEARS) {
    throw requestFailed("age", { dateOfBirth: "required" });
  }
  const latest = await latestRequest(deps.db, userId);
  if (latest?.status === "in_process") throw requestFailed("in_process");
  if (latest?.status === "success") throw requestFailed("verified");

  const names: Record<string, string> = {};
  try {
    for (const field of VERIFICATION_FILE_FIELDS) {
      const file = upload.files.get(field);
      if (!file) throw requestFailed("missing", { [field]: "required" });
      names[field] = await storeImage(deps.env.UPLOAD_DIR, VERIFICATION_FOLDER, file);
    }
    const row = await deps.db.transaction(async (tx) => {
      // Checked again under the user's row lock: of concurrent requests only one is in process.
      await lockUser(tx, userId);
      const current = await latestRequest(tx, userId);
      if (current?.status === "in_process") throw requestFailed("in_process");
      if (current?.status === "success") throw requestFailed("verified");
      const [created] = await tx
        .insert(verificationRequests)
        .values({
          userId,
          ...parsed.data,
          documentPhoto: names.documentPhoto as string,
          loginPhoto: names.loginPhoto as string,
          walletPhoto: names.walletPhoto as string,
          status: "in_process",
          createdAt: now,
        })
        .returning();
      return created;
    });
    return toState(row);
  } catch (error) {
    for (const name of Object.values(names)) await removeImage(deps.env.UPLOAD_DIR, VERIFICATION_FOLDER, name);
    throw error;
  }
}

export interface OperatorVerification extends VerificationState {
  id: string;
  userId: string;
  login: string;
  photos: { documentPhoto: string; loginPhoto: string; walletPhoto: string };
}

/** Operator: requests, newest first (`in_process` ones by default). */
export async function listVerifications(
  db: Database,
  filter: { status?: VerificationStatus | undefined; limit?: number | undefined } = {},
): Promise<OperatorVerification[]> {
  const rows = await db
    .select({ request: verificationRequests, login: users.login })
    .from(verificationRequests)
    .innerJoin(users, eq(users.id, verificationRequests.userId))
    .where(filter.status ? eq(verificationRequests.status, filter.status) : undefined)
    .orderBy(desc(verificationRequests.createdAt))
    .limit(filter.limit ?? 100);
  return rows.map(({ request, login }) => ({
    ...toState(request),
    id: request.id,
    userId: request.userId,
    login,
    photos: { documentPhoto: request.documentPhoto, loginPhoto: request.loginPhoto, walletPhoto: request.walletPhoto },
  }));
}

/**
 * Operator: decides the user's request waiting `in_process` (by user id or login): `success` or
 * `denied` (with an optional note), and notifies the user in their language. No waiting request:
 * 400 UPDATE_FAILED; unknown user: 404.
 */
export async function decideVerification(
  deps: Pick<ServiceContext, "db" | "clock">,
  user: string,
  decision: "success" | "denied",
  note?: string,
): Promise<OperatorVerification> {
  const { db, clock } = deps;
  const [owner] = await db
    .select({ id: users.id, login: users.login })
    .from(users)
    .where(isUuid(user) ? eq(users.id, user) : eq(users.login, user))
    .limit(1);
  if (!owner) throw new AppError("NOT_FOUND", { params: { user } });
  const row = await db.transaction(async (tx) => {
    const now = clock.now();
    const [decided] = await tx
      .update(verificationRequests)
      .set({ status: decision, decidedAt: now, note: note ?? null })
      .where(and(eq(verificationRequests.userId, owner.id), eq(verificationRequests.status, "in_process")))
      .returning();
    if (!decided) return undefined;
    await notify(
      tx,
      owner.id,
      decision === "success" ? "verification_success" : "verification_denied",
      note ? { note } : {},
      now,
    );
    return decided;
  });
  if (!row) throw new AppError("UPDATE_FAILED", { params: { error: "no verification request in process" } });
  return {
    ...toState(row),
    id: row.id,
    userId: row.userId,
    login: owner.login,
    photos: { documentPhoto: row.documentPhoto, loginPhoto: row.loginPhoto, walletPhoto: row.walletPhoto },
  };
}
