import type { CryptoCase } from "@contract";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAheadItems } from "@/components/ahead-pages";
import { Select } from "@/components/form/select";
import { PagedList } from "@/components/query-section";
import { localizedText } from "@/lib/localized";
import { useMoneyFormat } from "@/lib/money";
import { operationQueries } from "../api/operation-queries";
import { OperationRow } from "./operation-row";

/**
 * Operations of the user's deposits opened through a crypto case (`GET /user/case-operations`), newest
 * first, each with its case's name, filtered by case; more load on demand. `cases` names them (an
 * operation of a case no longer offered still shows, without a name).
 */
export function CaseOperationsList({ cases }: { cases: readonly CryptoCase[] }) {
  const { t } = useTranslation(["operations", "common"]);
  const format = useMoneyFormat();
  const [caseId, setCaseId] = useState("");
  const { list, items: operations } = useAheadItems(
    useInfiniteQuery(operationQueries.caseList(caseId ? { caseId } : {})),
    caseId,
  );
  const nameOf = (id: string | undefined) => {
    const found = id ? cases.find((c) => c.id === id) : undefined;
    return found ? localizedText(found.name, format.lng) : undefined;
  };
  return (
    <Section footer={t("cases.hint")}>
      {cases.length > 0 ? (
        <Select header={t("cases.filter")} name="caseId" value={caseId} onChange={(e) => setCaseId(e.target.value)}>
          <option value="">{t("cases.all")}</option>
          {cases.map((c) => (
            <option key={c.id} value={c.id}>
              {localizedText(c.name, format.lng)}
            </option>
          ))}
        </Select>
      ) : null}
      <PagedList
        query={list}
        items={operations}
        empty={t("cases.empty")}
        filtered={caseId !== ""}
        noMatch={t("cases.noMatch")}
        loadMore={t("loadMore")}
        testId="case-operations"
        renderItem={(operation) => (
          <OperationRow key={operation.id} operation={operation} caseName={nameOf(operation.details?.caseId)} />
        )}
      />
    </Section>
  );
}
