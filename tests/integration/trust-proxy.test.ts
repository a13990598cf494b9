/**
 * Whose X-Forwarded-For names the client address the per-address limits count by: only a
 * connection from a proxy listed in TRUST_PROXY. A client that reaches the instance directly and
 * sends its own X-Forwarded-For is still counted by its socket's address.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestServer, type TestServer } from "./helpers";

const PROXY = "10.0.0.5";
let server: TestServer;

beforeAll(async () => {
  server = await createTestServer({
    seed: false,
    // Two failed logins per address and 15 minutes; the per-account limit is not what is looked at here.
    env: { TRUST_PROXY: PROXY, RATE_LIMIT_LOGIN_IP: "2/900", RATE_LIMIT_LOGIN_ACCOUNT: "off" },
  });
});

afterAll(async () => {
  await server.close();
});

const wrongLogin = (n: number, ip: string, forwardedFor: string) =>
  call(
    server,
    "POST",
    "/auth/login",
    { login: `nobody${n}`, password: "Wrong-password-1" },
    { ip, headers: { "x-forwarded-for": forwardedFor } },
  );

describe("X-Forwarded-For", () => {
  it("is ignored from a client that connects directly: its forged addresses share its own budget", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await wrongLogin(i, "192.0.2.50", `198.51.100.${i + 1}`)).status);
    expect(statuses).toEqual([400, 400, 429, 429]);
  });

  it("names the client when the connection comes from the listed proxy", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await wrongLogin(10 + i, PROXY, `203.0.113.${i + 1}`)).status);
    // Four clients behind the proxy, one failure each: none is limited.
    expect(statuses).toEqual([400, 400, 400, 400]);
    // One client behind the proxy is limited by its own address, whatever the proxy's other clients do.
    const again = [await wrongLogin(20, PROXY, "203.0.113.1"), await wrongLogin(21, PROXY, "203.0.113.1")];
    expect(again.map((r) => r.status)).toEqual([400, 429]);
  });
});
