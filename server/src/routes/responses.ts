/** Response schemas shared by every route: the contract's error body for 4xx and 5xx replies. */
import { ApiErrorBody } from "@contract";
import type { z } from "zod";

export function withErrors<S extends Record<number, z.core.$ZodType>>(success: S) {
  return { ...success, "4xx": ApiErrorBody, "5xx": ApiErrorBody };
}
