import { createStore } from "jotai";
import { describe, expect, it } from "vitest";
import { ALERT_DEFAULT_DURATION_MS, alerts, alertsAtom, dismissAlert, pushAlert } from "@/lib/alerts";

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
    alerts.authSuccess("forgotPassword.done", { replace: true }, store);
    expect(store.get(alertsAtom).map((a) => a.text)).toEqual([{ ns: "auth", key: "forgotPassword.done" }]);
  });
});
