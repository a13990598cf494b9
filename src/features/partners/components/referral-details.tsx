import { useQuery } from "@tanstack/react-query";
import { Button, Skeleton } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { Detail, DetailList, DetailsSheet } from "@/components/details-sheet";
import { Placeholder } from "@/components/placeholder";
import { useApiErrorText } from "@/lib/error-text";
import { useMoneyFormat } from "@/lib/money";
import { partnerQueries } from "../api/partner-queries";
import { PerCurrency } from "./per-currency";

/** One referral as the server describes it (`GET /user/referral/:id`): line, inviter, invitees, money. */
export function ReferralDetails({ id, login, onClose }: { id: string; login: string; onClose(): void }) {
  const { t } = useTranslation(["partners", "common"]);
  const format = useMoneyFormat();
  const errorText = useApiErrorText();
  const referral = useQuery(partnerQueries.referral(id));
  return (
    <DetailsSheet title={login} onClose={onClose} testId="referral-details">
      {referral.isPending ? (
        <div className="money-skeleton">
          <Skeleton visible>
            <div className="skeleton-block" />
          </Skeleton>
        </div>
      ) : referral.isError ? (
        <Placeholder description={errorText(referral.error)}>
          <Button size="s" onClick={() => void referral.refetch()}>
            {t("retry", { ns: "common" })}
          </Button>
        </Placeholder>
      ) : (
        <DetailList>
          <Detail label={t("table.line")} testId="referral-details-line">
            {t("totals.line", { line: referral.data.line })}
          </Detail>
          <Detail label={t("details.inviter")} testId="referral-details-inviter">
            {referral.data.inviter ?? "—"}
          </Detail>
          <Detail label={t("details.invited")} testId="referral-details-invited">
            {referral.data.invited}
          </Detail>
          <Detail label={t("table.investments")}>
            <PerCurrency amounts={referral.data.personalInvestments} testId="referral-details-investments" />
          </Detail>
          <Detail label={t("table.profit")}>
            <PerCurrency amounts={referral.data.profit} testId="referral-details-profit" />
          </Detail>
          <Detail label={t("table.registered")}>{format.dateTime(referral.data.registeredAt)}</Detail>
        </DetailList>
      )}
    </DetailsSheet>
  );
}
