import { useQuery } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import type { ReactNode } from "react";
import { QuerySection } from "@/components/query-section";
import { operationQueries } from "../api/operation-queries";
import { OperationRow } from "./operation-row";

/** The latest five operations, for the cabinet. */
export function RecentOperations({ header, more, empty }: { header: string; more: ReactNode; empty: string }) {
  const recent = useQuery(operationQueries.recent());
  return (
    <Section header={header}>
      <QuerySection query={recent} empty={empty}>
        {(operations) => operations.map((operation) => <OperationRow key={operation.id} operation={operation} />)}
      </QuerySection>
      {more}
    </Section>
  );
}
