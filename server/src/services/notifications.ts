/**
 * Notifications of the dialog (spec §2). Server events call `notify(db, userId, kind, params)`
 * inside their own transaction, so a notification exists exactly when its event happened. The
 * row keeps the kind and its values; the title and body are written from the templates below in
 * the user's language when read (a user who switches language reads them in the new one).
 */
import type { Language, Notification, NotificationKind, NotificationsReply } from "@contract";
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Database } from "../db/client";
import { notifications, users } from "../db/schema";
import { unreadCount, userLanguage } from "./users";

type Params = Record<string, string>;
type Template = { title: string; body: string };

const WITHDRAWAL_STATUS: Record<Language, Record<string, string>> = {
  en: { on_inspection: "on inspection", success: "paid out", rejected: "rejected", error: "failed" },
  ru: { on_inspection: "на проверке", success: "выплачен", rejected: "отклонён", error: "ошибка" },
  de: { on_inspection: "in Prüfung", success: "ausgezahlt", rejected: "abgelehnt", error: "fehlgeschlagen" },
  kk: { on_inspection: "тексеруде", success: "төленді", rejected: "қабылданбады", error: "қате" },
};

/** Server-side templates in the four languages; `{name}` is filled from the params. */
export const NOTIFICATION_TEMPLATES: Record<Language, Record<NotificationKind, Template>> = {
  en: {
    refill_credited: { title: "Refill credited", body: "{amount} {currency} has been credited to your balance." },
    refill_rejected: {
      title: "Refill rejected",
      body: "Your refill of {amount} {currency} was rejected. Contact support if you sent the coins.",
    },
    withdrawal_status: { title: "Withdrawal {status}", body: "Your withdrawal of {amount} {currency} is {status}." },
    deposit_ended: {
      title: "Deposit ended",
      body: "Your {plan} deposit has ended: {amount} {currency} and {income} {currency} of income were paid to your balance.",
    },
    verification_success: { title: "Successful verification", body: "Your account has been verified." },
    verification_denied: {
      title: "Verification error",
      body: "Your verification request was denied. {note}",
    },
    subscription_activated: { title: "Subscription active", body: "Your subscription is active until {until}." },
  },
  ru: {
    refill_credited: { title: "Пополнение зачислено", body: "На ваш баланс зачислено {amount} {currency}." },
    refill_rejected: {
      title: "Пополнение отклонено",
      body: "Пополнение на {amount} {currency} отклонено. Если вы отправили монеты, напишите в поддержку.",
    },
    withdrawal_status: { title: "Вывод: {status}", body: "Ваш вывод {amount} {currency}: {status}." },
    deposit_ended: {
      title: "Депозит завершён",
      body: "Депозит по тарифу {plan} завершён: {amount} {currency} и доход {income} {currency} зачислены на баланс.",
    },
    verification_success: { title: "Успешная верификация", body: "Ваш аккаунт верифицирован." },
    verification_denied: { title: "Ошибка верификации", body: "Заявка на верификацию отклонена. {note}" },
    subscription_activated: { title: "Подписка активна", body: "Ваша подписка действует до {until}." },
  },
  de: {
    refill_credited: {
      title: "Aufladung gutgeschrieben",
      body: "{amount} {currency} wurden Ihrem Guthaben gutgeschrieben.",
    },
    refill_rejected: {
      title: "Aufladung abgelehnt",
      body: "Ihre Aufladung über {amount} {currency} wurde abgelehnt. Wenden Sie sich an den Support, falls Sie die Coins gesendet haben.",
    },
    withdrawal_status: { title: "Auszahlung: {status}", body: "Ihre Auszahlung über {amount} {currency}: {status}." },
    deposit_ended: {
      title: "Einlage beendet",
      body: "Ihre Einlage im Tarif {plan} ist beendet: {amount} {currency} und {income} {currency} Ertrag wurden gutgeschrieben.",
    },
    verification_success: { title: "Erfolgreiche Verifizierung", body: "Ihr Konto wurde verifiziert." },
    verification_denied: { title: "Verifizierungsfehler", body: "Ihre Verifizierungsanfrage wurde abgelehnt. {note}" },
    subscription_activated: { title: "Abo aktiv", body: "Ihr Abo ist bis {until} aktiv." },
  },
  kk: {
    refill_credited: { title: "Толтыру есептелді", body: "Балансыңызға {amount} {currency} есептелді." },
    refill_rejected: {
      title: "Толтыру қабылданбады",
      body: "{amount} {currency} толтыру қабылданбады. Монеталарды жіберсеңіз, қолдау қызметіне жазыңыз.",
    },
    withdrawal_status: { title: "Шығару: {status}", body: "{amount} {currency} шығаруыңыз: {status}." },
    deposit_ended: {
      title: "Депозит аяқталды",
      body: "{plan} тарифі бойынша депозит аяқталды: {amount} {currency} және {income} {currency} табыс балансқа есептелді.",
    },
    verification_success: { title: "Сәтті верификация", body: "Аккаунтыңыз верификацияланды." },
    verification_denied: { title: "Верификация қатесі", body: "Верификация өтінімі қабылданбады. {note}" },
    subscription_activated: { title: "Жазылым белсенді", body: "Жазылымыңыз {until} дейін белсенді." },
  },
};

function fillTemplate(template: string, params: Params): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? "").trim();
}

/** The title and body of one notification in `language`. */
export function renderNotification(kind: NotificationKind, params: Params, language: Language): Template {
  const values = { ...params };
  if (kind === "withdrawal_status" && params.status) {
    values.status = WITHDRAWAL_STATUS[language][params.status] ?? params.status;
  }
  // Names stored per language (a plan's) as `<name>_<language>`.
  for (const [key, value] of Object.entries(params)) {
    if (key.endsWith(`_${language}`)) values[key.slice(0, -language.length - 1)] = value;
  }
  if (params.until) values.until = params.until.slice(0, 10);
  const template = NOTIFICATION_TEMPLATES[language][kind];
  return { title: fillTemplate(template.title, values), body: fillTemplate(template.body, values) };
}

/** Records a notification for `userId`; call it inside the event's transaction. */
export async function notify(
  db: Database,
  userId: string,
  kind: NotificationKind,
  params: Params,
  at: Date,
): Promise<void> {
  await db.insert(notifications).values({ userId, kind, params, createdAt: at });
}

const LIST_LIMIT = 100;

/** The caller's newest notifications in their language and the unread count. */
export async function listNotifications(db: Database, userId: string): Promise<NotificationsReply> {
  const [user] = await db.select({ language: users.language }).from(users).where(eq(users.id, userId));
  const language = userLanguage(user ?? { language: "" });
  const rows = await db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(LIST_LIMIT);
  const items: Notification[] = rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    ...renderNotification(row.kind, row.params, language),
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt?.toISOString() ?? null,
  }));
  return { items, unread: await unreadCount(db, userId) };
}

/** Marks the caller's `ids` (all when absent) read; ids of other users' notifications change nothing. */
export async function markNotificationsRead(
  db: Database,
  clock: Clock,
  userId: string,
  ids?: string[],
): Promise<{ unread: number }> {
  if (ids === undefined || ids.length > 0) {
    await db
      .update(notifications)
      .set({ readAt: clock.now() })
      .where(
        and(
          eq(notifications.userId, userId),
          isNull(notifications.readAt),
          ids ? inArray(notifications.id, ids) : undefined,
        ),
      );
  }
  return { unread: await unreadCount(db, userId) };
}
