/** News calls (docs/cabinet-rules.md#api-calls): news (public, sanitised on the server). */
import { routes } from "@contract";
import type { KassaApp } from "../../context";
import { getNews, listNews } from "../../services/news";
import { defineRoute } from "../define";

export async function contentRoutes(app: KassaApp) {
  defineRoute(
    app,
    routes.news,
    {
      summary: "Every news item, newest first (all languages, or `?lang` for one)",
      description: "Bodies are HTML limited to p, br, strong, em, a (http/https), ul, ol, li, h3.",
    },
    ({ ctx, query }) => listNews(ctx.db, query.lang),
  );

  defineRoute(app, routes.newsOne, { summary: "One news item; 404 NOT_FOUND when absent" }, ({ ctx, params, query }) =>
    getNews(ctx.db, params.id, query.lang),
  );
}
