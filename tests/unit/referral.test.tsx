/** An invitation link on the web (`/?ref=<login>`, `/register?ref=<login>`) keeps its inviter through registration. */
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EMPTY_REGISTRATION, registerDraftAtom } from "@/features/auth/model/register-draft";
import { initialFormState } from "@/lib/form/use-form";
import { referralFromSearch } from "@/lib/referral";
import { appStore } from "@/lib/store";
import { setTelegramBridge } from "@/tma/bridge";
import { oneSetting } from "./route-stubs";
import { fakeBridge, renderApp, stubRoutes } from "./test-utils";

const inviter = () => screen.findByTestId("inviter").then((cell) => cell.textContent);

beforeEach(() => {
  sessionStorage.clear();
  appStore.set(registerDraftAtom, initialFormState(EMPTY_REGISTRATION));
  // The default inviter: what the registration falls back to without a link.
  stubRoutes({ setting: oneSetting("defaultInviter", "kassa") });
});
afterEach(() => {
  sessionStorage.clear();
  setTelegramBridge(null);
});

describe("an invitation link", () => {
  it("/?ref=<login>: through the login screen to the registration, the inviter is the link's", async () => {
    const { router } = await renderApp({ path: "/?ref=Alice7" });
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    fireEvent.click(await screen.findByText("Register"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/register"));
    expect(await inviter()).toContain("Alice7");
  });

  it("/register?ref=<login> shows that inviter, and a reload of /register keeps it", async () => {
    const first = await renderApp({ path: "/register?ref=bob42" });
    expect(await inviter()).toContain("bob42");
    first.unmount();
    await renderApp({ path: "/register" });
    expect(await inviter()).toContain("bob42");
  });

  it("inside Telegram: the start parameter ref_<login> is the registration's inviter", async () => {
    setTelegramBridge(fakeBridge("android", { startParam: "ref_tgfriend" }).bridge);
    await renderApp({ path: "/register" });
    expect(await inviter()).toContain("tgfriend");
  });

  it("without a link the default inviter stays", async () => {
    await renderApp({ path: "/register" });
    expect(await inviter()).toContain("kassa");
  });

  it("reads only a login, from the query or the login screen's next", () => {
    expect(referralFromSearch("?ref=alice")).toBe("alice");
    expect(referralFromSearch(`?next=${encodeURIComponent("/?ref=alice")}`)).toBe("alice");
    expect(referralFromSearch("?ref=al%20ice")).toBeUndefined();
    expect(referralFromSearch(`?next=${encodeURIComponent("https://evil.example/?ref=alice")}`)).toBeUndefined();
    expect(referralFromSearch("")).toBeUndefined();
  });
});
