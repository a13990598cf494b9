/**
 * The currency exchange (`GET /user/exchange-rate`, `POST /user/exchange`; docs/cabinet-rules.md#money). Rates
 * and fee come from the `exchangeRates` setting; the arithmetic is contract/exchange-math.ts, so the app's
 * preview is exactly what is credited. One transaction, two `exchange` operations: the debit of `from` and the
 * credit of `to`.
 */
import {
  type ExchangeBody,
  type ExchangeRateReply,
  type ExchangeReply,
  exchangeAmountIssue,
  exchangeQuote,
} from "@contract";
import type { ServiceContext } from "../context";
import type { Database } from "../db/client";
import { normalizeDecimal } from "../decimal";
import { AppError } from "../errors";
import { getBalances, postAll } from "./ledger";
import { getSetting } from "./settings";

export async function getExchangeRates(db: Database): Promise<ExchangeRateReply> {
  const setting = await getSetting(db, "exchangeRates");
  const r = setting.rates;
  return {
    base: "USD",
    rates: {
      USDT: normalizeDecimal(r.USDT),
      BTC: normalizeDecimal(r.BTC),
      ETH: normalizeDecimal(r.ETH),
      TON: normalizeDecimal(r.TON),
    },
    feePercent: normalizeDecimal(setting.feePercent),
  };
}

/**
 * Exchanges `amount` of `from` into `to`. An amount that is zero on the scale of `from`, or that
 * yields zero of `to`, is 400 VALIDATION_FAILED `amountBelowMinimum`; a balance too low is 409
 * INSUFFICIENT_FUNDS.
 */
export async function exchange(
  deps: Pick<ServiceContext, "db" | "clock">,
  userId: string,
  body: ExchangeBody,
): Promise<ExchangeReply> {
  const { db } = deps;
  const { rates, feePercent } = await getExchangeRates(db);
  const input = { from: body.from, to: body.to, amount: body.amount, rates, feePercent };
  const issue = exchangeAmountIssue(input);
  if (issue) throw new AppError("VALIDATION_FAILED", { fields: { amount: issue } });
  const { debited, received } = exchangeQuote(input);
  const at = deps.clock.now();
  const details = {
    from: body.from,
    to: body.to,
    debited,
    received,
    rateFrom: rates[body.from],
    rateTo: rates[body.to],
    feePercent,
  };
  await db.transaction(async (tx) => {
    await postAll(tx, [
      { userId, currency: body.from, type: "exchange", amount: `-${debited}`, meta: details, at },
      { userId, currency: body.to, type: "exchange", amount: received, meta: details, at },
    ]);
  });
  return {
    from: body.from,
    to: body.to,
    debited,
    received,
    rates: { from: rates[body.from], to: rates[body.to] },
    feePercent,
    currencies: await getBalances(db, userId),
  };
}
