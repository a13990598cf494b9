/**
 * The route table joins the areas' calls (`contract/routes/<area>.ts`) by spreading them into one object: a name
 * two areas both used would keep only the later call, with no error from TypeScript. Every area's calls are in the
 * table, once each, as the area wrote them.
 */
import { describe, expect, it } from "vitest";
import { routes } from "../../contract/routes";
import { accountRoutes } from "../../contract/routes/account";
import { appRoutes } from "../../contract/routes/app";
import { authRoutes } from "../../contract/routes/auth";
import { balanceRoutes } from "../../contract/routes/balance";
import { contentRoutes } from "../../contract/routes/content";
import { fundsRoutes } from "../../contract/routes/funds";
import { partnersRoutes } from "../../contract/routes/partners";
import { settingsRoutes } from "../../contract/routes/settings";
import { withdrawalsRoutes } from "../../contract/routes/withdrawals";

const AREAS = {
  settingsRoutes,
  authRoutes,
  balanceRoutes,
  fundsRoutes,
  partnersRoutes,
  withdrawalsRoutes,
  accountRoutes,
  contentRoutes,
  appRoutes,
};

describe("the route table's areas", () => {
  it("each call's name is used by one area only, and the table holds every area's call as written", () => {
    const names = Object.values(AREAS).flatMap((area) => Object.keys(area));
    expect(names.filter((name, at) => names.indexOf(name) !== at)).toEqual([]);
    expect(Object.keys(routes)).toEqual(names);
    for (const area of Object.values(AREAS))
      for (const [name, route] of Object.entries(area)) expect(routes[name as keyof typeof routes]).toBe(route);
  });

  it("no two calls share a method and a path", () => {
    const calls = Object.values(routes).map((route) => `${route.method} ${route.path}`);
    expect(calls.filter((call, at) => calls.indexOf(call) !== at)).toEqual([]);
  });
});
