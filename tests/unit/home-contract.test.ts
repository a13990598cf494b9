/** The home's contract helpers: a rate shown to six significant digits, the explorer link, the statement's period. */
import { describe, expect, it } from "vitest";
import { displayRate, explorerLink, StatementQuery } from "../../contract";

describe("displayRate", () => {
  it("keeps six significant digits, rounded half-up, exactly", () => {
    expect(displayRate("0.181818181818")).toBe("0.181818");
    expect(displayRate("0.1818185")).toBe("0.181819");
    expect(displayRate("0.00001234567")).toBe("0.0000123457");
    expect(displayRate("5.5")).toBe("5.5");
    expect(displayRate("1.2000001")).toBe("1.2");
    expect(displayRate("0")).toBe("0");
  });

  it("never drops a digit of the whole part", () => {
    expect(displayRate("65432.789")).toBe("65432.8");
    expect(displayRate("123456789.5")).toBe("123456790");
    expect(displayRate("999999.5")).toBe("1000000");
  });

  it("reads digits a JS number would lose", () => {
    expect(displayRate("0.10000049999999999999999")).toBe("0.1");
    expect(displayRate("12345678901234567890.5")).toBe("12345678901234567891");
  });
});

describe("explorerLink", () => {
  it("puts the encoded hash where {tx} stands, and gives nothing without a template or a hash", () => {
    expect(explorerLink("https://tronscan.org/#/transaction/{tx}", "ab12")).toBe(
      "https://tronscan.org/#/transaction/ab12",
    );
    expect(explorerLink("https://x.example/tx/{tx}?again={tx}", "a/b+c")).toBe(
      "https://x.example/tx/a%2Fb%2Bc?again=a%2Fb%2Bc",
    );
    expect(explorerLink(null, "ab12")).toBeNull();
    expect(explorerLink("https://x.example/tx/{tx}", null)).toBeNull();
  });
});

describe("StatementQuery", () => {
  const issue = (query: Record<string, string>) => {
    const parsed = StatementQuery.safeParse(query);
    return parsed.success ? null : parsed.error.issues.map((i) => `${i.path.join(".")}:${i.message}`);
  };

  it("takes a period of at most 366 days, forwards", () => {
    expect(issue({ from: "2024-01-01", to: "2024-12-31" })).toBeNull();
    expect(issue({ from: "2026-05-01", to: "2026-05-01" })).toBeNull();
    expect(issue({ from: "2025-01-01", to: "2026-01-02" })).toEqual(["to:periodTooLong"]);
    expect(issue({ from: "2026-05-02", to: "2026-05-01" })).toEqual(["to:periodOrder"]);
  });
});
