import type { CryptoCase, Plan } from "@contract";
import { Cell, Radio, Section } from "@telegram-apps/telegram-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { localizedText } from "@/lib/localized";
import { useMoneyFormat } from "@/lib/money";
import { haptics } from "@/tma/hooks";
import { planName } from "./deposit-form";

export interface CryptoCaseListProps {
  cases: readonly CryptoCase[];
  plans: readonly Plan[];
  /** The chosen case, or null for every plan. */
  selectedId: string | null;
  onSelect(caseId: string | null): void;
}

/** The plans of a case that are on offer, in the case's order (a case may name a plan since withdrawn). */
export function casePlans(cryptoCase: CryptoCase, plans: readonly Plan[]): Plan[] {
  return cryptoCase.planIds.flatMap((id) => plans.find((plan) => plan.id === id) ?? []);
}

/**
 * Crypto cases (curated bundles of plans with a risk level) as a choice under the amount, "Every plan" by default:
 * one row says what is chosen and opens the radio group; choosing a case narrows the plans to its own and opens
 * the deposit through it; "Every plan" undoes it.
 */
export function CryptoCaseList({ cases, plans, selectedId, onSelect }: CryptoCaseListProps) {
  const { t } = useTranslation(["deposits", "enums"]);
  const format = useMoneyFormat();
  const offered = cases.filter((c) => casePlans(c, plans).length > 0);
  const [expanded, setExpanded] = useState(false);
  if (offered.length === 0) return null;

  const chosen = offered.find((c) => c.id === selectedId) ?? null;
  const choose = (id: string | null) => {
    setExpanded(false);
    if (id === selectedId) return;
    haptics.selection();
    onSelect(id);
  };

  return (
    <Section header={t("cases.header")} footer={expanded ? t("cases.hint") : undefined} data-testid="crypto-cases">
      <Cell
        Component="button"
        type="button"
        className="case-choice"
        aria-expanded={expanded}
        onClick={() => setExpanded((open) => !open)}
        data-testid="case-choice"
        data-case-id={chosen?.id}
        after={<span className={expanded ? "case-chevron case-chevron-open" : "case-chevron"} aria-hidden="true" />}
        description={chosen ? t(`riskLevel.${chosen.riskLevel}`, { ns: "enums" }) : t("cases.allPlansHint")}
        multiline
      >
        {chosen ? localizedText(chosen.name, format.lng) : t("cases.allPlans")}
      </Cell>
      {expanded ? <CaseOptions offered={offered} plans={plans} selectedId={selectedId} onChoose={choose} /> : null}
    </Section>
  );
}

function CaseOptions({
  offered,
  plans,
  selectedId,
  onChoose: choose,
}: {
  offered: readonly CryptoCase[];
  plans: readonly Plan[];
  selectedId: string | null;
  onChoose(id: string | null): void;
}) {
  const { t } = useTranslation(["deposits", "enums"]);
  const format = useMoneyFormat();
  return (
    <div role="radiogroup" aria-label={t("cases.header")}>
      <Cell
        Component="label"
        className="crypto-case-cell"
        before={
          <Radio
            name="caseId"
            value=""
            aria-label={t("cases.allPlans")}
            checked={selectedId === null}
            onChange={() => choose(null)}
          />
        }
        description={t("cases.allPlansHint")}
        multiline
      >
        {t("cases.allPlans")}
      </Cell>
      {offered.map((cryptoCase) => {
        const selected = cryptoCase.id === selectedId;
        return (
          <Cell
            key={cryptoCase.id}
            Component="label"
            className={selected ? "crypto-case-cell crypto-case-selected" : "crypto-case-cell"}
            data-testid="crypto-case"
            data-case-id={cryptoCase.id}
            data-risk-level={cryptoCase.riskLevel}
            before={
              <Radio
                name="caseId"
                value={cryptoCase.id}
                aria-label={localizedText(cryptoCase.name, format.lng)}
                checked={selected}
                onChange={() => choose(cryptoCase.id)}
              />
            }
            subtitle={localizedText(cryptoCase.description, format.lng)}
            description={
              <span className="case-plans">
                <span className="visually-hidden">{`${t("cases.plans")}:`}</span>
                {casePlans(cryptoCase, plans).map((plan) => (
                  <span key={plan.id} className="case-plan" data-plan-id={plan.id}>
                    {`${planName(plan, format.lng)} · ${t("form.dailyYieldValue", { yield: format.decimal(plan.dailyYieldPercent) })}`}
                  </span>
                ))}
              </span>
            }
            multiline
          >
            <span className="crypto-case-title">
              <span className="crypto-case-name">{localizedText(cryptoCase.name, format.lng)}</span>
              <span className={`risk-badge risk-${cryptoCase.riskLevel}`} data-testid="case-risk">
                {t(`riskLevel.${cryptoCase.riskLevel}`, { ns: "enums" })}
              </span>
            </span>
          </Cell>
        );
      })}
    </div>
  );
}
