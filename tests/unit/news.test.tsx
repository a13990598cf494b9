/** News: the list links each item, a deep link opens one item, and its body is sanitised before it shows. */
import type { NewsItemInLanguage } from "@contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setTelegramBridge } from "@/tma/bridge";
import { DEMO_USER, fakeBridge, renderApp, stubRoutes } from "./test-utils";

const ITEM: NewsItemInLanguage = {
  id: "n1",
  language: "en",
  title: "Platform update",
  body: '<p>New <strong>plans</strong></p><img src=x onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">bad</a>',
  publishedAt: "2026-01-05T10:00:00.000Z",
};

afterEach(() => {
  vi.unstubAllGlobals();
  setTelegramBridge(null);
});

describe("news", () => {
  it("lists the news with links to each item", async () => {
    const fetchMock = stubRoutes({ news: { body: [ITEM] } });
    await renderApp({ path: "/news", user: DEMO_USER });
    const row = await screen.findByTestId("news-row");
    expect(row.getAttribute("data-news-id")).toBe("n1");
    expect(row.getAttribute("href")).toBe("/news/n1");
    expect(row.textContent).toContain("Platform update");
    const url = fetchMock.mock.calls.map(([input]) => String(input)).find((u) => u.includes("/content/news"));
    expect(url).toContain("lang=en");
  });

  it("opens one item by a deep link and drops unsafe markup", async () => {
    stubRoutes({ newsOne: { body: ITEM } });
    const { container } = await renderApp({ path: "/news/n1", user: DEMO_USER });
    expect((await screen.findByTestId("news-title")).textContent).toBe("Platform update");
    const body = screen.getByTestId("news-body");
    expect(body.querySelector("strong")?.textContent).toBe("plans");
    expect(body.querySelector("img, script")).toBeNull();
    expect(body.querySelector("a")?.getAttribute("href")).toBeNull();
    expect(container.querySelector('[data-screen="news-item"]')).toBeTruthy();
  });

  it("has one way back on the web, in the row of the bell: no second back link, no empty title row", async () => {
    stubRoutes({ newsOne: { body: ITEM } });
    await renderApp({ path: "/news/n1", user: DEMO_USER });
    await screen.findByTestId("news-title");
    expect(screen.queryByTestId("news-back")).toBeNull();
    const back = screen.getByTestId("page-back");
    expect(back.getAttribute("href")).toBe("/news");
    expect(back.parentElement?.classList.contains("page-title-row")).toBe(true);
    expect(document.querySelectorAll("h1")).toHaveLength(1);
  });

  it("opens the links of a body through Telegram, never navigating the Mini App away", async () => {
    const linked = {
      ...ITEM,
      body: '<p><a href="https://example.org/report">report</a> <a href="https://t.me/kassa_news/5">channel</a></p>',
    };
    stubRoutes({ newsOne: { body: linked } });
    const telegram = fakeBridge("tdesktop");
    setTelegramBridge(telegram.bridge);
    await renderApp({ path: "/news/n1", user: DEMO_USER });
    const body = await screen.findByTestId("news-body");
    const [external, channel] = Array.from(body.querySelectorAll("a")) as [HTMLAnchorElement, HTMLAnchorElement];
    expect(fireEvent.click(external)).toBe(false);
    expect(telegram.bridge.openLink).toHaveBeenCalledWith("https://example.org/report");
    expect(fireEvent.click(channel)).toBe(false);
    expect(telegram.bridge.openTelegramLink).toHaveBeenCalledWith("https://t.me/kassa_news/5");
    expect(telegram.bridge.openLink).toHaveBeenCalledTimes(1);
  });

  it("says when the item does not exist", async () => {
    stubRoutes({});
    await renderApp({ path: "/news/missing", user: DEMO_USER });
    expect(await screen.findByText("This news item was not found")).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId("news-back").getAttribute("href")).toBe("/news"));
  });
});
