import { Avatar, Cell, Skeleton } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { FieldNote } from "@/components/form/text-field";
import type { FieldErrorText } from "@/lib/form/field-errors";

export interface InviterCellProps {
  /** The inviter's login; undefined while it is being looked up. */
  inviter: string | null | undefined;
  loading?: boolean;
  /** The server did not know this inviter. */
  error?: FieldErrorText;
}

/**
 * Who invites the new user (docs/decisions.md#d4-identity-and-sessions): from the referral link, else the
 * default inviter.
 */
export function InviterCell({ inviter, loading = false, error }: InviterCellProps) {
  const { t } = useTranslation("registration");
  if (loading) {
    return (
      <Skeleton visible>
        <Cell subhead={t("register.inviter")}>{t("register.inviterLoading")}</Cell>
      </Skeleton>
    );
  }
  if (!inviter) {
    return (
      <Cell multiline className="static-cell" subhead={t("register.inviter")}>
        {t("register.inviterUnknown")}
      </Cell>
    );
  }
  return (
    <>
      <Cell
        className="static-cell"
        subhead={t("register.inviter")}
        data-testid="inviter"
        before={<Avatar size={40} acronym={inviter.slice(0, 2).toUpperCase()} />}
      >
        {inviter}
      </Cell>
      <FieldNote id="inviter-note" name="inviter" error={error} />
    </>
  );
}
