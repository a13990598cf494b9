/** Other group of spec §7: news (public, sanitised on the server). */
import { routes } from "@contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { getNews, listNews } from "../../services/news";
import { withErrors } from "../responses";

const tags = ["content"];

export const contentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    routes.news.path,
    {
      schema: {
        tags,
        summary: "Every news item, newest first (all languages, or `?lang` for one)",
        description: "Bodies are HTML limited to p, br, strong, em, a (http/https), ul, ol, li, h3.",
        querystring: routes.news.query,
        response: withErrors({ 200: routes.news.response }),
      },
    },
    async (request) => listNews(app.db, request.query.lang),
  );
  app.get(
    routes.newsOne.path,
    {
      schema: {
        tags,
        summary: "One news item; 404 NOT_FOUND when absent",
        params: routes.newsOne.params,
        querystring: routes.newsOne.query,
        response: withErrors({ 200: routes.newsOne.response }),
      },
    },
    async (request) => getNews(app.db, request.params.id, request.query.lang),
  );
};
