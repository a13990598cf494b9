import { Button, Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import type { FirstStep } from "../model/first-step";

const STEPS = ["refill", "deposit", "earn"] as const;

export interface FirstStepsProps {
  step: FirstStep;
  /** The current step's action: the refill screen (step 1), the open-deposit sheet (step 2). */
  onAction(): void;
}

const CheckMark = () => (
  <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path
      d="M5 12.5 10 17.5 19 7"
      fill="none"
      stroke="currentColor"
      strokeWidth="3"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
);

/**
 * A newcomer's first steps, as Telegram shows an empty state: what to do next (top up → choose a plan and open a
 * deposit → watch it earn), the steps done checked, the current one marked, and one primary action, the current
 * step's.
 */
export function FirstSteps({ step, onAction }: FirstStepsProps) {
  const { t } = useTranslation("cabinet");
  const done = step - 1;
  return (
    <Section className="first-steps" data-testid="first-steps" data-step={step} aria-labelledby="first-steps-title">
      <div className="first-steps-body">
        <div className="first-steps-head">
          <h2 className="first-steps-title" id="first-steps-title">
            {t("firstSteps.title")}
          </h2>
          <p className="first-steps-lead">{t("firstSteps.lead")}</p>
          {/* Drawn as telegram-ui's Steps bar is (its component, imported here, split the cabinet's launch chunk). */}
          <div className="first-steps-progress" aria-hidden="true">
            {STEPS.map((name, index) => (
              <span key={name} className={index < done ? "first-steps-bar first-steps-bar-done" : "first-steps-bar"} />
            ))}
          </div>
        </div>
        <ol className="first-steps-list">
          {STEPS.map((name, index) => {
            const state = index < done ? "done" : index === done ? "current" : "next";
            return (
              <li
                key={name}
                className={`first-steps-item first-steps-item-${state}`}
                data-testid={`first-step-${name}`}
                data-state={state}
                aria-current={state === "current" ? "step" : undefined}
              >
                <span className="first-steps-mark" aria-hidden="true">
                  {state === "done" ? <CheckMark /> : index + 1}
                </span>
                <span className="first-steps-text">
                  <span className="first-steps-name">
                    {t(`firstSteps.steps.${name}.title`)}
                    {state === "done" ? <span className="visually-hidden">, {t("firstSteps.done")}</span> : null}
                  </span>
                  <span className="first-steps-hint">{t(`firstSteps.steps.${name}.hint`)}</span>
                </span>
              </li>
            );
          })}
        </ol>
        <div className="first-steps-action">
          <Button size="l" stretched onClick={onAction} data-testid="first-steps-action">
            {t(step === 1 ? "firstSteps.actions.refill" : "firstSteps.actions.deposit")}
          </Button>
        </div>
      </div>
    </Section>
  );
}
