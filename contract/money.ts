/** Money on the wire: always a decimal string such as "125.50", never a JSON number (docs/decisions.md#d3-money). */
import * as z from "zod/mini";
import { deferred } from "./deferred";

/** The most decimals an amount is stored with (every amount column is NUMERIC(38, 18)); an amount with more is refused. */
export const AMOUNT_MAX_DECIMALS = 18;

export const DECIMAL_PATTERN = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** A signed decimal string. */
export const Decimal = deferred(() => z.string().check(z.regex(DECIMAL_PATTERN, { message: "decimal" })));
export type Decimal = z.infer<typeof Decimal>;

/** A decimal string that is zero or more. */
export const NonNegativeDecimal = deferred(() =>
  z.string().check(z.regex(/^(0|[1-9]\d*)(\.\d+)?$/, { message: "decimal" })),
);
