import { describe, expect, it } from "vitest";
import { isTopLevelPath, loginPath, registerPath, safeNextPath } from "@/config/paths";

describe("paths", () => {
  it("send a signed-out visitor to login with where they were going", () => {
    expect(loginPath("/deposits")).toBe("/login?next=%2Fdeposits");
    expect(loginPath("/news/7?x=1")).toBe("/login?next=%2Fnews%2F7%3Fx%3D1");
    expect(loginPath("/")).toBe("/login?next=%2F");
  });

  it("follow `next` only inside the app", () => {
    expect(safeNextPath("/refill")).toBe("/refill");
    expect(safeNextPath("https://evil.example")).toBeUndefined();
    expect(safeNextPath("//evil.example")).toBeUndefined();
    expect(safeNextPath("/\\evil.example")).toBeUndefined();
    expect(safeNextPath("/login?next=/x")).toBeUndefined();
    expect(safeNextPath(null)).toBeUndefined();
    expect(loginPath("https://evil.example")).toBe("/login");
  });

  it("know the top-level screens (no Back button there)", () => {
    for (const path of ["/", "/login", "/refill", "/deposits", "/withdrawal", "/more", "/refill/"]) {
      expect(isTopLevelPath(path), path).toBe(true);
    }
    for (const path of ["/register", "/register/alice", "/news/1", "/partners", "/settings", "/forgot-password"]) {
      expect(isTopLevelPath(path), path).toBe(false);
    }
  });

  it("build the registration link with the inviter", () => {
    expect(registerPath("alice")).toBe("/register/alice");
    expect(registerPath()).toBe("/register");
  });
});
