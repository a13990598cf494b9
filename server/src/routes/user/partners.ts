/**
 * Partners calls of the user group (docs/cabinet-rules.md#partners; docs/decisions.md#d6-partners). Always the
 * caller's own tree.
 */
import { routes } from "@contract";
import type { KassaApp } from "../../context";
import { preparePartnerInvite } from "../../services/partner-invite";
import { getBonuses, getReferral, listReferrals } from "../../services/partners";
import { defineRoute } from "../define";

export async function userPartnersRoutes(app: KassaApp) {
  defineRoute(
    app,
    routes.referrals,
    {
      summary: "The caller's referrals within the referral lines, with totals",
      description:
        "Filters: search (login substring, any case), line (1…N). Sort: login | investments | profit | line | " +
        "createdAt (investments and profit order by their USD value at the current exchange rates), sortDir " +
        "asc | desc. Amounts per currency. Totals are over the whole downline, not the filtered page.",
    },
    ({ ctx, auth, query }) => listReferrals(ctx.db, auth.userId, query),
  );

  defineRoute(
    app,
    routes.referral,
    { summary: "One member of the caller's downline (anyone else is 404)" },
    ({ ctx, auth, params }) => getReferral(ctx.db, auth.userId, params.id),
  );

  defineRoute(
    app,
    routes.bonus,
    { summary: "The four turnover bonuses: target, award, the caller's turnover, reached, paid" },
    ({ ctx, auth }) => getBonuses(ctx.db, auth.userId),
  );

  defineRoute(
    app,
    routes.partnerInvite,
    {
      summary: "An invitation with the caller's referral button, prepared by the bot to send from the Mini App",
      description:
        "Bot API 8.0 savePreparedInlineMessage for the caller's Telegram account; the Mini App passes the id to " +
        "web_app_send_prepared_message. 404 without a bot or for an account not linked to Telegram; 503 BUSY when " +
        "the Bot API refuses or does not answer.",
    },
    ({ ctx, auth }) => preparePartnerInvite(ctx, app.bot, auth.userId),
  );
}
