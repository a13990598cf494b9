/** Translation keys typed from the English files: a wrong key or namespace fails `tsc`. */
import "i18next";
import type auth from "../../locales/en/auth.json";
import type bot from "../../locales/en/bot.json";
import type cabinet from "../../locales/en/cabinet.json";
import type codes from "../../locales/en/codes.json";
import type common from "../../locales/en/common.json";
import type deposits from "../../locales/en/deposits.json";
import type enums from "../../locales/en/enums.json";
import type errors from "../../locales/en/errors.json";
import type exchange from "../../locales/en/exchange.json";
import type maintenance from "../../locales/en/maintenance.json";
import type money from "../../locales/en/money.json";
import type nav from "../../locales/en/nav.json";
import type news from "../../locales/en/news.json";
import type notifications from "../../locales/en/notifications.json";
import type operations from "../../locales/en/operations.json";
import type partners from "../../locales/en/partners.json";
import type recovery from "../../locales/en/recovery.json";
import type refill from "../../locales/en/refill.json";
import type registration from "../../locales/en/registration.json";
import type settings from "../../locales/en/settings.json";
import type subscription from "../../locales/en/subscription.json";
import type success from "../../locales/en/success.json";
import type terms from "../../locales/en/terms.json";
import type validation from "../../locales/en/validation.json";
import type withdrawal from "../../locales/en/withdrawal.json";

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    returnNull: false;
    resources: {
      common: typeof common;
      bot: typeof bot;
      nav: typeof nav;
      errors: typeof errors;
      validation: typeof validation;
      success: typeof success;
      enums: typeof enums;
      auth: typeof auth;
      registration: typeof registration;
      recovery: typeof recovery;
      terms: typeof terms;
      cabinet: typeof cabinet;
      maintenance: typeof maintenance;
      refill: typeof refill;
      deposits: typeof deposits;
      partners: typeof partners;
      withdrawal: typeof withdrawal;
      operations: typeof operations;
      settings: typeof settings;
      news: typeof news;
      notifications: typeof notifications;
      subscription: typeof subscription;
      exchange: typeof exchange;
      money: typeof money;
      codes: typeof codes;
    };
  }
}
