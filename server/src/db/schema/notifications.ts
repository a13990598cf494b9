/** Notifications and verification requests. */
import {
  FAMILY_STATUSES,
  NOTIFICATION_KINDS,
  type NotificationKind,
  VERIFICATION_STATUSES,
  type VerificationStatus,
} from "@contract";
import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { sqlList, timestamptz } from "./columns";

// -------------------------------------------------------------------------------------------------
// Settings, notifications and verification.

/**
 * Notifications of the dialog (docs/cabinet-rules.md#screens): what happened (`kind`) and its values (`params`); the
 * title and body are written from server-side templates in the user's language when read.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<NotificationKind>().notNull(),
    params: jsonb("params").$type<Record<string, string>>().notNull(),
    createdAt: timestamptz("created_at").notNull(),
    readAt: timestamptz("read_at"),
  },
  (t) => [
    index("notifications_user_idx").on(t.userId, t.createdAt),
    check("notifications_kind_known", sql`${t.kind} in (${sqlList(NOTIFICATION_KINDS)})`),
  ],
);

/**
 * Verification requests (docs/cabinet-rules.md#entities, #statuses-and-flows): one row per request, the newest
 * counts. The photos are stored file names under UPLOAD_DIR/verification, never served.
 */
export const verificationRequests = pgTable(
  "verification_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    fullName: text("full_name").notNull(),
    dateOfBirth: text("date_of_birth").notNull(),
    familyStatus: text("family_status").notNull(),
    documentNumber: text("document_number").notNull(),
    documentPhoto: text("document_photo").notNull(),
    loginPhoto: text("login_photo").notNull(),
    walletPhoto: text("wallet_photo").notNull(),
    status: text("status").$type<VerificationStatus>().notNull(),
    note: text("note"),
    createdAt: timestamptz("created_at").notNull(),
    decidedAt: timestamptz("decided_at"),
  },
  (t) => [
    index("verification_requests_user_idx").on(t.userId, t.createdAt),
    index("verification_requests_status_idx").on(t.status, t.createdAt),
    check("verification_requests_status_known", sql`${t.status} in (${sqlList(VERIFICATION_STATUSES)})`),
    check("verification_requests_family_known", sql`${t.familyStatus} in (${sqlList(FAMILY_STATUSES)})`),
  ],
);
