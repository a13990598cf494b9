// The route table's calls for the partner programme (`contract/routes.ts` joins the areas).
import { IdParams } from "../funds";
import { BonusReply, PartnerInviteReply, ReferralDetail, ReferralsQuery, ReferralsReply } from "../partners";
import { route } from "./route";

export const partnersRoutes = {
  // Partners (docs/decisions.md#d6-partners)
  referrals: route({
    method: "GET",
    path: "/user/referrals",
    auth: true,
    tags: ["partners"],
    query: ReferralsQuery,
    response: ReferralsReply,
  }),
  /** One member of the caller's downline; anyone else is 404. */
  referral: route({
    method: "GET",
    path: "/user/referral/:id",
    auth: true,
    tags: ["partners"],
    params: IdParams,
    response: ReferralDetail,
  }),
  bonus: route({ method: "GET", path: "/user/bonus", auth: true, tags: ["partners"], response: BonusReply }),
  /**
   * An invitation with the caller's referral button, prepared by the bot for the caller's Telegram account, to
   * send from the Mini App to a chat of their choice. 404 without a bot or for an account not linked to Telegram.
   */
  partnerInvite: route({
    method: "POST",
    path: "/user/referral/invite",
    auth: true,
    tags: ["partners"],
    response: PartnerInviteReply,
  }),
} as const;
