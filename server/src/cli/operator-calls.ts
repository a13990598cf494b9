/**
 * What an operator command can ask, wherever it runs: the `Operator` both ways of reaching the data implement (the
 * database opened here, `direct-operator.ts`, or a running server's `/api/operator/*`, `operator.ts`), and their error.
 */
import type { NewsItem, PaymentSystem, Refill, RefillStatus, TechnicalWorkReply, VerificationStatus } from "@contract";
import type {
  Catalog,
  CatalogApplyReply,
  ChatOutboxReply,
  ClockChangeRequest,
  JobRun,
  MaintenanceRequest,
  UnlockAccountReply,
  WithdrawalRowStatus,
} from "@contract/operator";
import type { AccrualRun } from "../services/accruals";
import type { DevClockShift, DevClockState } from "../services/dev-clock";
import type { LedgerDiscrepancy } from "../services/ledger";
import type { NewsInput } from "../services/news";
import type { OperatorRefill } from "../services/refills";
import type { SettingKey } from "../services/setting-defs";
import type { OperatorVerification } from "../services/verification";
import type { OperatorWithdrawal, OperatorWithdrawalAction } from "../services/withdrawals";

export interface Operator {
  /** How the command reached the data, for the operator's information. */
  readonly via: string;
  maintenance(change: MaintenanceRequest): Promise<TechnicalWorkReply>;
  getSetting(key: SettingKey): Promise<unknown>;
  setSetting(key: SettingKey, value: unknown): Promise<unknown>;
  setExplorer(paymentSystemId: string, template: string | null): Promise<PaymentSystem>;
  catalog(): Promise<Catalog>;
  applyCatalog(catalog: Catalog): Promise<CatalogApplyReply>;
  listRefills(filter: { status?: RefillStatus | undefined; limit?: number | undefined }): Promise<OperatorRefill[]>;
  confirmRefill(id: string, amount?: string): Promise<Refill>;
  rejectRefill(id: string, note?: string): Promise<Refill>;
  listWithdrawals(filter: {
    status?: WithdrawalRowStatus | undefined;
    limit?: number | undefined;
  }): Promise<OperatorWithdrawal[]>;
  processWithdrawal(
    id: string,
    action: OperatorWithdrawalAction,
    options?: { txHash?: string | undefined; note?: string | undefined },
  ): Promise<OperatorWithdrawal>;
  runAccruals(): Promise<AccrualRun>;
  jobs(): Promise<JobRun[]>;
  unlockAccount(login: string): Promise<UnlockAccountReply>;
  auditLedger(): Promise<LedgerDiscrepancy[]>;
  clock(): Promise<DevClockState>;
  shiftClock(change: ClockChangeRequest): Promise<DevClockShift>;
  listVerifications(filter: {
    status?: VerificationStatus | undefined;
    limit?: number | undefined;
  }): Promise<OperatorVerification[]>;
  decideVerification(user: string, decision: "approve" | "deny", note?: string): Promise<OperatorVerification>;
  addNews(input: NewsInput): Promise<NewsItem>;
  listNews(): Promise<NewsItem[]>;
  chatOutbox(limit?: number, status?: "waiting" | "given_up"): Promise<ChatOutboxReply>;
  retryChatOutbox(id?: string): Promise<number>;
  resendChatOutbox(id: string): Promise<number>;
  close(): Promise<void>;
}

export class OperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OperatorError";
  }
}

export const NO_DEV_CLOCK = "the development clock does not exist in production";
