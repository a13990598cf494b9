import type { Operation } from "@contract";
import type { Translate } from "@/lib/form/messages";

/**
 * An operation's name in the list and its sheet: its type's, and for a withdrawal's return why the money came back
 * (rejected by the operator, failed, cancelled), so a rejection never reads as a cancellation.
 */
export function operationTitle(t: Translate, operation: Pick<Operation, "type" | "details">): string {
  const outcome = operation.type === "withdrawal_return" ? operation.details?.withdrawalOutcome : undefined;
  return outcome
    ? t(`withdrawalReturn.${outcome}`, { ns: "enums" })
    : t(`ledgerOperationType.${operation.type}`, { ns: "enums" });
}
