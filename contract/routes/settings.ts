// The route table's calls for the public settings (`contract/routes.ts` joins the areas).
import * as z from "zod/mini";
import { deferred } from "../deferred";
import {
  PaymentSystemsReply,
  PlansReply,
  PublicSettingKey,
  SettingReply,
  SubscriptionOptionsReply,
  TechnicalWorkReply,
  TelegramAuthAvailableReply,
} from "../settings";
import { route } from "./route";

export const settingsRoutes = {
  // Settings (docs/cabinet-rules.md#api-calls)
  telegramAuthAvailable: route({
    method: "GET",
    path: "/settings/telegramAuthAvailable",
    auth: false,
    tags: ["settings"],
    response: TelegramAuthAvailableReply,
  }),
  technicalWork: route({
    method: "GET",
    path: "/settings/technical_work",
    auth: false,
    tags: ["settings"],
    response: TechnicalWorkReply,
  }),
  subscriptionOptions: route({
    method: "GET",
    path: "/settings/subscription/options",
    auth: false,
    tags: ["settings"],
    response: SubscriptionOptionsReply,
  }),
  setting: route({
    method: "GET",
    path: "/settings/:key",
    auth: false,
    tags: ["settings"],
    params: deferred(() => z.object({ key: PublicSettingKey })),
    response: SettingReply,
  }),
  plansAvailable: route({
    method: "GET",
    path: "/settings_other/plans/available",
    auth: false,
    tags: ["settings"],
    response: PlansReply,
  }),
  paymentSystems: route({
    method: "GET",
    path: "/payment-systems",
    auth: false,
    tags: ["settings"],
    response: PaymentSystemsReply,
  }),
} as const;
