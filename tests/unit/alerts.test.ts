import { AppRoot } from "@telegram-apps/telegram-ui";
import { act, render } from "@testing-library/react";
import { createStore } from "jotai";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AlertSnackbar } from "@/components/alert-snackbar";
import { ALERT_DEFAULT_DURATION_MS, type Alert, alerts, alertsAtom, dismissAlert, pushAlert } from "@/lib/alerts";
import { appStore } from "@/lib/store";
import { ensureI18n } from "./test-utils";

describe("alerts", () => {
  it("last 3000 ms unless told otherwise", () => {
    expect(ALERT_DEFAULT_DURATION_MS).toBe(3000);
    const store = createStore();
    pushAlert({ tone: "info", text: { ns: "common", key: "loading" } }, store);
    pushAlert({ tone: "error", text: { ns: "errors", key: "INTERNAL" }, duration: 6000 }, store);
    expect(store.get(alertsAtom).map((a) => a.duration)).toEqual([3000, 6000]);
  });

  it("queue in order and leave when dismissed", () => {
    const store = createStore();
    const first = alerts.error("RATE_LIMITED", undefined, store);
    alerts.success("CODE_SENT", store);
    expect(store.get(alertsAtom).map((a) => a.text)).toEqual([
      { ns: "errors", key: "RATE_LIMITED" },
      { ns: "success", key: "CODE_SENT" },
    ]);
    dismissAlert(first, store);
    expect(store.get(alertsAtom).map((a) => a.text.key)).toEqual(["CODE_SENT"]);
  });

  it("carry message parameters", () => {
    const store = createStore();
    alerts.error("UPDATE_FAILED", { error: "avatar" }, store);
    expect(store.get(alertsAtom)[0]?.text).toEqual({ ns: "errors", key: "UPDATE_FAILED", params: { error: "avatar" } });
  });

  it("can replace what is queued when it makes the rest out of date", () => {
    const store = createStore();
    alerts.success("CODE_SENT", store);
    alerts.error("RATE_LIMITED", undefined, store);
    alerts.recoverySuccess("forgotPassword.done", { replace: true }, store);
    expect(store.get(alertsAtom).map((a) => a.text)).toEqual([{ ns: "recovery", key: "forgotPassword.done" }]);
  });
});

describe("an alert on screen", () => {
  afterEach(() => {
    vi.useRealTimers();
    appStore.set(alertsAtom, []);
  });

  it("leaves after its duration, and a leftover timer closes nothing once it is gone from the screen", async () => {
    await ensureI18n();
    vi.useFakeTimers();
    const shown = pushAlert({ tone: "info", text: { ns: "common", key: "loading" } });
    const view = render(
      createElement(AppRoot, null, createElement(AlertSnackbar, { alert: appStore.get(alertsAtom)[0] as Alert })),
    );
    expect(view.getByRole("status").textContent).not.toBe("");
    await act(() => vi.advanceTimersByTimeAsync(ALERT_DEFAULT_DURATION_MS));
    expect(appStore.get(alertsAtom).map((a) => a.id)).toContain(shown);
    await act(() => vi.advanceTimersByTimeAsync(400));
    expect(appStore.get(alertsAtom).map((a) => a.id)).not.toContain(shown);
    view.unmount();

    // One that goes away with its screen before its time stays queued for the next screen to show: telegram-ui's
    // Snackbar never clears its own close timer, which dismissed it 3 s later from nowhere.
    const kept = pushAlert({ tone: "info", text: { ns: "common", key: "loading" } });
    const again = render(
      createElement(AppRoot, null, createElement(AlertSnackbar, { alert: appStore.get(alertsAtom)[0] as Alert })),
    );
    again.unmount();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(appStore.get(alertsAtom).map((a) => a.id)).toEqual([kept]);
  });
});
