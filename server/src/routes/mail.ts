/**
 * The unsubscribe link of a news e-mail (docs/delivery.md#news-by-e-mail), public: `POST /api/mail/unsubscribe?token=…`
 * turns news e-mails off for the token's account (the mail client's one-click, RFC 8058, with the body
 * `List-Unsubscribe=One-Click`; or the page's button) and answers a page saying so; `GET` only shows the page
 * with that button, because mail scanners open links, and a GET must change nothing. A token this server did not
 * make is 400 with a page saying the link is not valid. The pages are in the account's language (an invalid
 * link's in the browser's, else Russian).
 */
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from "@contract";
import { eq } from "drizzle-orm";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { users } from "../db/schema";
import { openUnsubscribeToken, UNSUBSCRIBE_PATH } from "../security/unsubscribe";
import { userLanguage } from "../services/users";
import { botText } from "../texts/bot";

const PATH = UNSUBSCRIBE_PATH.replace(/^\/api/, "");

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The first of the browser's languages Kassa speaks, else the fallback. */
function browserLanguage(request: FastifyRequest): Language {
  const header = request.headers["accept-language"] ?? "";
  for (const part of header.split(",")) {
    const code = part.trim().slice(0, 2).toLowerCase();
    const found = LANGUAGES.find((l) => l === code);
    if (found) return found;
  }
  return FALLBACK_LANGUAGE;
}

function page(reply: FastifyReply, status: number, language: Language, title: string, body: string) {
  return reply
    .code(status)
    .header("cache-control", "no-store")
    .header("referrer-policy", "no-referrer")
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    );
}

export const mailRoutes: FastifyPluginAsync = async (app) => {
  // The one-click body (RFC 8058: `List-Unsubscribe=One-Click`, form-encoded or multipart) and the page's form:
  // nothing of them is read but the token in the link.
  app.addContentTypeParser(
    ["application/x-www-form-urlencoded", "multipart/form-data"],
    { parseAs: "string", bodyLimit: 4096 },
    (_request, _body, done) => done(null, undefined),
  );

  const account = async (request: FastifyRequest) => {
    const token = (request.query as { token?: unknown }).token;
    const userId = openUnsubscribeToken(app.codeSecret, token);
    if (!userId) return null;
    const [user] = await app.db.select().from(users).where(eq(users.id, userId));
    return user ? { user, token: token as string } : null;
  };
  const invalid = (request: FastifyRequest, reply: FastifyReply) => {
    const language = browserLanguage(request);
    return page(
      reply,
      400,
      language,
      botText(language, "mail.unsubscribe.invalidTitle"),
      `<p>${escapeHtml(botText(language, "mail.unsubscribe.invalid"))}</p>`,
    );
  };

  app.get(PATH, { schema: { hide: true } }, async (request, reply) => {
    const found = await account(request);
    if (!found) return invalid(request, reply);
    const language = userLanguage(found.user);
    const action = `${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(found.token)}`;
    const question = found.user.emailNews ? "mail.unsubscribe.ask" : "mail.unsubscribe.already";
    return page(
      reply,
      200,
      language,
      botText(language, "mail.unsubscribe.title"),
      `<p>${escapeHtml(botText(language, question))}</p>${
        found.user.emailNews
          ? `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${escapeHtml(botText(language, "mail.unsubscribe.button"))}</button></form>`
          : ""
      }`,
    );
  });

  app.post(PATH, { schema: { hide: true } }, async (request, reply) => {
    const found = await account(request);
    if (!found) return invalid(request, reply);
    await app.db.update(users).set({ emailNews: false }).where(eq(users.id, found.user.id));
    request.log.info({ login: found.user.login }, "news e-mails turned off (unsubscribe link)");
    const language = userLanguage(found.user);
    return page(
      reply,
      200,
      language,
      botText(language, "mail.unsubscribe.doneTitle"),
      `<p>${escapeHtml(botText(language, "mail.unsubscribe.done"))}</p>`,
    );
  });
};
