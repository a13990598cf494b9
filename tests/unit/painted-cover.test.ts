/**
 * The launcher's painted block handed over to the app (`app/painted-cover.ts`): once the app's first render has taken
 * it out of `#root`, it stays over the page until the app shows what it stands for, then goes; at most 10 s.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { keepPaintedOver } from "@/app/painted-cover";

/** A `#root` with the boot spinner, as the page has it before the app's first render. */
function page(): HTMLElement {
  document.body.innerHTML = `<div id="root"><div data-testid="boot"></div></div>`;
  return document.getElementById("root") as HTMLElement;
}

/** What the launcher does: the block in the spinner's place, marked with what it stands for. */
function paint(root: HTMLElement, kind: "cabinet" | "login"): HTMLElement {
  const block = document.createElement("div");
  block.dataset.kassaPainted = kind;
  block.textContent = "12.50 USDT";
  root.querySelector("[data-testid='boot']")?.replaceWith(block);
  return block;
}

/** React's first commit: `#root` emptied, then what the app shows so far. */
function render(root: HTMLElement, html: string): void {
  root.replaceChildren();
  root.insertAdjacentHTML("beforeend", html);
}

const flush = () => new Promise((done) => setTimeout(done, 0));
const cover = () => document.querySelector<HTMLElement>(".painted-cover");

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = "";
});

describe("the painted block over the app's first renders", () => {
  it("stays over the app, hidden from screen readers, until the cabinet's headline shows", async () => {
    const root = page();
    const block = paint(root, "cabinet");
    keepPaintedOver(root);
    render(root, `<div data-screen="cabinet"><div class="spinner"></div></div>`);
    await flush();
    expect(cover()?.contains(block)).toBe(true);
    expect(cover()?.getAttribute("aria-hidden")).toBe("true");
    // The cabinet's screen without its headline yet: still over it.
    render(root, `<div data-screen="cabinet"><div data-testid="balance"></div></div>`);
    await flush();
    expect(cover()?.contains(block)).toBe(true);
    render(root, `<div data-screen="cabinet"><div data-testid="overview-total">12.50</div></div>`);
    await flush();
    expect(cover()).toBeNull();
    expect(block.isConnected).toBe(false);
  });

  it("goes when the app shows another screen than the cabinet (maintenance, the phone's code)", async () => {
    const root = page();
    paint(root, "cabinet");
    keepPaintedOver(root);
    render(root, `<div data-screen="maintenance"></div>`);
    await flush();
    expect(cover()).toBeNull();
  });

  it("follows a block painted after the app started, and the login's until a screen shows", async () => {
    const root = page();
    keepPaintedOver(root);
    const block = paint(root, "login");
    await flush();
    render(root, `<div class="spinner"></div>`);
    await flush();
    expect(cover()?.contains(block)).toBe(true);
    render(root, `<div data-screen="login"></div>`);
    await flush();
    expect(cover()).toBeNull();
  });

  it("goes after 10 s whatever the app shows", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    const root = page();
    paint(root, "cabinet");
    keepPaintedOver(root);
    render(root, `<div class="spinner"></div>`);
    await Promise.resolve();
    expect(cover()).not.toBeNull();
    vi.advanceTimersByTime(9_000);
    expect(cover()).not.toBeNull();
    vi.advanceTimersByTime(1_001);
    expect(cover()).toBeNull();
  });
});
