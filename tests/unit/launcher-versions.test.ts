// The launcher keeps two versions of the Mini Apps API of its own (`app/launcher/telegram.ts`: the SDK's `supports`
// would bring the SDK's whole bridge into its inline script): here they meet the SDK's table, which the boot asks.
import { type MethodName, supports } from "@telegram-apps/sdk-react";
import { describe, expect, it } from "vitest";
import { SAFE_AREAS_SINCE, STORAGES_SINCE } from "@/app/launcher/telegram";
import { SAFE_AREA_REQUESTS } from "@/tma/safe-areas";
import { telegramStorages } from "@/tma/token-places";

/** Whether the SDK's table has `method` from `since`.0 on, and not in the version before. */
function arrivesIn(method: string, since: number): boolean {
  return supports(method as MethodName, `${since}.0`) && !supports(method as MethodName, `${since - 1}.99`);
}

describe("the launcher's Mini Apps API versions", () => {
  it("ask for the safe areas from the version the SDK says has them", () => {
    expect(SAFE_AREA_REQUESTS.length).toBe(2);
    for (const method of SAFE_AREA_REQUESTS) expect(arrivesIn(method, SAFE_AREAS_SINCE), method).toBe(true);
  });

  it("read the client's storages from the version the SDK says has them", () => {
    // The methods the token store asks the client whether it has, on every platform that keeps a storage.
    const asked = new Set<string>();
    for (const platform of ["ios", "android", "android_x", "tdesktop", "macos", "weba", "webk", "web", "unknown"])
      telegramStorages(platform, (method) => {
        asked.add(method);
        return false;
      });
    expect([...asked].sort()).toEqual(["web_app_device_storage_get_key", "web_app_secure_storage_get_key"]);
    for (const method of asked) expect(arrivesIn(method, STORAGES_SINCE), method).toBe(true);
  });
});
