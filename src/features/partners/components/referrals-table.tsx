import { REFERRAL_SORTS, type Referral, type ReferralSort, type ReferralsReply, type SortDir } from "@contract";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Button, Section } from "@telegram-apps/telegram-ui";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAheadItems } from "@/components/ahead-pages";
import { Select } from "@/components/form/select";
import { TextField } from "@/components/form/text-field";
import { Placeholder } from "@/components/placeholder";
import { TallSkeleton } from "@/components/query-section";
import { useWindowList } from "@/components/window-list";
import { useApiErrorText } from "@/lib/error-text";
import { useMoneyFormat } from "@/lib/money";
import { partnerQueries, type ReferralFilter } from "../api/partner-queries";
import { useDebouncedValue } from "../hooks/use-debounced-value";
import { PerCurrency } from "./per-currency";
import { ReferralDetails } from "./referral-details";

/** Logins and lines read best A→Z / 1→n first; amounts and dates newest / largest first. */
const DEFAULT_DIR: Record<ReferralSort, SortDir> = {
  login: "asc",
  line: "asc",
  investments: "desc",
  profit: "desc",
  createdAt: "desc",
};
const ROW_ESTIMATE_PX = 88;
const DEFAULT_LINES = [1, 2, 3];

/**
 * The referrals as a virtualized infinite list over the window's scroll (thousands of rows stay
 * smooth): a line filter, a debounced login search and sorting, all done by the server. The first page
 * also brings the totals, handed to `onTotals`.
 */
export function ReferralsTable({ onTotals }: { onTotals(totals: ReferralsReply["totals"] | null): void }) {
  const { t } = useTranslation(["partners", "common"]);
  const errorText = useApiErrorText();
  const [searchText, setSearchText] = useState("");
  const search = useDebouncedValue(searchText.trim());
  const [line, setLine] = useState<number | undefined>(undefined);
  const [sort, setSort] = useState<ReferralSort>("createdAt");
  const [sortDir, setSortDir] = useState<SortDir>(DEFAULT_DIR.createdAt);
  const filter: ReferralFilter = { sort, sortDir, search: search || undefined, line };
  const { list, items: rows } = useAheadItems(
    useInfiniteQuery(partnerQueries.referrals(filter)),
    JSON.stringify(filter),
  );
  const first = list.data?.pages[0];
  const total = list.data?.pages.at(-1)?.total ?? 0;
  const lines = first?.totals.byLine.map((l) => l.line) ?? DEFAULT_LINES;

  const totals = first?.totals ?? null;
  useEffect(() => onTotals(totals), [totals, onTotals]);

  return (
    <Section header={t("table.header")}>
      <div className="referral-filters">
        <TextField
          name="search"
          type="search"
          label={t("table.search")}
          placeholder={t("table.searchPlaceholder")}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          value={searchText}
          onValueChange={setSearchText}
        />
        <div className="money-filters">
          <Select
            header={t("table.line")}
            name="line"
            value={line === undefined ? "" : String(line)}
            onChange={(event) => setLine(event.target.value ? Number(event.target.value) : undefined)}
          >
            <option value="">{t("table.allLines")}</option>
            {lines.map((l) => (
              <option key={l} value={l}>
                {t("totals.line", { line: l })}
              </option>
            ))}
          </Select>
          <Select
            header={t("table.sort")}
            name="sort"
            value={sort}
            onChange={(event) => {
              const next = event.target.value as ReferralSort;
              setSort(next);
              setSortDir(DEFAULT_DIR[next]);
            }}
          >
            {REFERRAL_SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`table.sorts.${s}`)}
              </option>
            ))}
          </Select>
        </div>
        <div className="referral-sort-dir">
          <span className="referral-found" aria-live="polite">
            {list.data ? t("table.found", { count: total }) : ""}
          </span>
          <Button
            size="s"
            mode="plain"
            onClick={() => setSortDir((d) => (d === "asc" ? "desc" : "asc"))}
            data-testid="sort-dir"
            data-dir={sortDir}
            aria-label={sortDir === "asc" ? t("table.dirAsc") : t("table.dirDesc")}
          >
            {`${sortDir === "asc" ? "↑" : "↓"} ${sortDir === "asc" ? t("table.dirAsc") : t("table.dirDesc")}`}
          </Button>
        </div>
      </div>
      {list.isPending ? (
        <div className="money-skeleton">
          <TallSkeleton />
        </div>
      ) : list.isError && rows.length === 0 ? (
        <Placeholder description={errorText(list.error)}>
          <Button size="s" onClick={() => void list.refetch()}>
            {t("retry", { ns: "common" })}
          </Button>
        </Placeholder>
      ) : rows.length === 0 ? (
        <Placeholder description={search || line ? t("table.noMatch") : t("table.empty")} />
      ) : (
        <VirtualRows
          rows={rows}
          hasMore={list.hasNextPage}
          loadingMore={list.isFetchingNextPage}
          onLoadMore={() => void list.fetchNextPage()}
          dimmed={list.isPlaceholderData}
        />
      )}
    </Section>
  );
}

function VirtualRows({
  rows,
  hasMore,
  loadingMore,
  onLoadMore,
  dimmed,
}: {
  rows: readonly Referral[];
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore(): void;
  dimmed: boolean;
}) {
  const list = useWindowList({
    count: rows.length + (hasMore ? 1 : 0),
    estimateSize: () => ROW_ESTIMATE_PX,
    getItemKey: (index) => rows[index]?.id ?? "more",
    overscan: 8,
  });
  const { items } = list;
  const last = items.at(-1);
  useEffect(() => {
    if (last && last.index >= rows.length - 1 && hasMore && !loadingMore) onLoadMore();
  }, [last, rows.length, hasMore, loadingMore, onLoadMore]);

  return (
    <div
      ref={list.listRef}
      className={dimmed ? "referral-list referral-list-dimmed" : "referral-list"}
      style={{ height: list.totalSize }}
    >
      {items.map((item) => {
        const referral = rows[item.index];
        return (
          <div
            key={referral?.id ?? "more"}
            data-index={item.index}
            ref={list.measure}
            className="referral-slot"
            style={{ transform: `translateY(${list.startOf(item.index)}px)` }}
          >
            {referral ? <ReferralRow referral={referral} /> : <div className="referral-more">…</div>}
          </div>
        );
      })}
    </div>
  );
}

function ReferralRow({ referral }: { referral: Referral }) {
  const { t } = useTranslation("partners");
  const format = useMoneyFormat();
  const [open, setOpen] = useState(false);
  return (
    <div
      className="money-row referral-row"
      data-testid="referral-row"
      data-login={referral.login}
      data-line={referral.line}
    >
      <button
        type="button"
        className="row-open"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        aria-label={t("details.open", { login: referral.login })}
        data-testid="referral-open"
      />
      {open ? <ReferralDetails id={referral.id} login={referral.login} onClose={() => setOpen(false)} /> : null}
      <span className="money-row-head">
        <span className="referral-login">{referral.login}</span>
        <span className={`line-badge line-${Math.min(referral.line, 3)}`}>
          {t("totals.line", { line: referral.line })}
        </span>
      </span>
      <dl className="referral-facts">
        <div>
          <dt>{t("table.investments")}</dt>
          <dd>
            <PerCurrency amounts={referral.personalInvestments} testId="referral-investments" />
          </dd>
        </div>
        <div>
          <dt>{t("table.profit")}</dt>
          <dd>
            <PerCurrency amounts={referral.profit} testId="referral-profit" />
          </dd>
        </div>
        <div>
          <dt>{t("table.registered")}</dt>
          <dd>{format.date(referral.registeredAt)}</dd>
        </div>
      </dl>
    </div>
  );
}
