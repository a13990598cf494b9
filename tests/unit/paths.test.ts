import { describe, expect, it } from "vitest";
import {
  isTermsDoc,
  isTopLevelPath,
  loginPath,
  phoneVerificationPath,
  registerPath,
  safeNextPath,
  termsPath,
} from "@/config/paths";

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
    for (const path of [
      "/",
      "/login",
      "/phone-verification",
      "/refill",
      "/deposits",
      "/withdrawal",
      "/more",
      "/refill/",
    ]) {
      expect(isTopLevelPath(path), path).toBe(true);
    }
    for (const path of [
      "/register",
      "/register/alice",
      "/news/1",
      "/partners",
      "/settings",
      "/forgot-password",
      "/terms/offer",
    ]) {
      expect(isTopLevelPath(path), path).toBe(false);
    }
  });

  it("build the registration link with the inviter", () => {
    expect(registerPath("alice")).toBe("/register/alice");
    expect(registerPath()).toBe("/register");
  });

  it("send a user whose phone waits to phone verification, with where they go after it", () => {
    expect(phoneVerificationPath("/refill")).toBe("/phone-verification?next=%2Frefill");
    expect(phoneVerificationPath("/")).toBe("/phone-verification");
    expect(phoneVerificationPath("https://evil.example")).toBe("/phone-verification");
  });

  it("name the Terms' two documents", () => {
    expect(termsPath("offer")).toBe("/terms/offer");
    expect(isTermsDoc("agreement")).toBe(true);
    expect(isTermsDoc("privacy")).toBe(false);
  });
});
