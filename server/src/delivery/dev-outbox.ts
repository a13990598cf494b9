/**
 * Development delivery (docs/decisions.md#d5-codes): a code is written to the server log and kept in an outbox
 * that `GET /api/dev/outbox` serves, newest first, so a developer or a test can read it. Never
 * used in production, where the outbox route does not exist.
 */
import type { CodeChannel } from "@contract";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock";
import type { CodePurpose } from "../db/schema";
import type { ChannelNotice, CodeDelivery, CodeRecipient, CodeSender } from "./code-sender";

export interface OutboxEntry {
  login: string;
  purpose: CodePurpose;
  code: string;
  channel: CodeChannel;
  /** ISO 8601. */
  createdAt: string;
}

/** A notice (no code) as the development sender kept it. */
export interface NoticeEntry {
  login: string;
  channel: CodeChannel;
  text: string;
  /** ISO 8601. */
  createdAt: string;
}

export class DevOutbox {
  private readonly entries: OutboxEntry[] = [];
  private readonly noticeEntries: NoticeEntry[] = [];

  addNotice(entry: NoticeEntry): void {
    this.noticeEntries.unshift(entry);
    if (this.noticeEntries.length > this.limit) this.noticeEntries.length = this.limit;
  }

  /** The notices sent to `login` (any letter case), newest first. */
  notices(login: string): NoticeEntry[] {
    return this.noticeEntries.filter((e) => e.login.toLowerCase() === login.toLowerCase());
  }

  constructor(private readonly limit = 500) {}

  add(entry: OutboxEntry): void {
    this.entries.unshift(entry);
    if (this.entries.length > this.limit) this.entries.length = this.limit;
  }

  /** Newest first; `login` compared regardless of letter case. */
  list(filter: { login?: string | undefined; purpose?: CodePurpose | undefined } = {}): OutboxEntry[] {
    const login = filter.login?.toLowerCase();
    return this.entries.filter(
      (e) =>
        (login === undefined || e.login.toLowerCase() === login) && (!filter.purpose || e.purpose === filter.purpose),
    );
  }
}

export class DevCodeSender implements CodeSender {
  constructor(
    readonly outbox: DevOutbox,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(delivery: CodeDelivery): Promise<void> {
    const { login, purpose, code, channel } = delivery;
    this.outbox.add({ login, purpose, code, channel, createdAt: this.clock.now().toISOString() });
    this.log.info({ login, purpose, channel, code }, "verification code (development outbox, not sent)");
  }

  /** The outbox takes every code, under the user's chosen channel. */
  route(recipient: CodeRecipient): CodeChannel {
    return recipient.channel;
  }

  async tell(notice: ChannelNotice): Promise<void> {
    const { login, channel, text } = notice;
    this.outbox.addNotice({ login, channel, text, createdAt: this.clock.now().toISOString() });
    this.log.info({ login, channel, text }, "notice (development outbox, not sent)");
  }
}
