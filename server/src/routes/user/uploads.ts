/**
 * Multipart calls of the user group (docs/cabinet-rules.md#api-calls): `PATCH /user/avatar` and `PATCH
 * /user-data/verification`, the verification status, and the avatar served back. Multipart is
 * accepted only inside this plugin. The avatar file route needs no session: `<img src>` cannot
 * send a bearer token, so the name itself (128 random bits, only ever shown to its owner in
 * `avatarUrl`) is the capability; it is served with the type found by content and `nosniff`.
 */
import fs from "node:fs";
import { AVATAR_FILE_FIELD, IMAGE_MAX_BYTES, routes, text, VERIFICATION_FILE_FIELDS } from "@contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { KassaApp } from "../../context";
import { AppError } from "../../errors";
import { readImageUpload, registerUploads } from "../../plugins/uploads";
import { storedPath } from "../../services/uploads";
import { userView } from "../../services/users";
import { AVATAR_FOLDER, getVerification, requestVerification, setAvatar } from "../../services/verification";
import { defineRoute } from "../define";

/**
 * The key of a user's uploads under RATE_LIMIT_UPLOAD_ACCOUNT (20 an hour): counted before the body
 * is read, so a refused upload costs the server no disk, and its connection is closed unread.
 */
const uploadKey = (userId: string) => `upload:${userId}`;

const VERIFICATION_TEXT_FIELDS = ["fullName", "dateOfBirth", "familyStatus", "documentNumber"] as const;
const MULTIPART = ["multipart/form-data"];

/** Room for the images and the multipart framing, per upload route. */
const UPLOAD_LIMITS: Record<
  string,
  { maxBytes: number; failure: "IMAGE_UPDATE_FAILED" | "VERIFICATION_REQUEST_FAILED" }
> = {
  [`PATCH /api${routes.updateAvatar.path}`]: { maxBytes: IMAGE_MAX_BYTES + 64 * 1024, failure: "IMAGE_UPDATE_FAILED" },
  [`PATCH /api${routes.requestVerification.path}`]: {
    maxBytes: VERIFICATION_FILE_FIELDS.length * IMAGE_MAX_BYTES + 64 * 1024,
    failure: "VERIFICATION_REQUEST_FAILED",
  },
};

/**
 * Refuses an upload by its `Content-Length` before a byte of the body is read and before the
 * session is looked up (a plugin-level hook runs before the routes' own): a body without a
 * length, or longer than the route takes, is refused at once. Multipart bodies are streamed by
 * the handler, so `bodyLimit` alone would not stop a 100 MB upload from being read to its end.
 */
async function refuseOversized(request: FastifyRequest) {
  const limit = UPLOAD_LIMITS[`${request.method} ${request.routeOptions.url}`];
  if (!limit) return;
  const header = request.headers["content-length"];
  const length = header === undefined ? Number.NaN : Number(header);
  const field = limit.failure === "IMAGE_UPDATE_FAILED" ? AVATAR_FILE_FIELD : "files";
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new AppError(limit.failure, { params: { reason: "malformed" }, fields: { [field]: "required" } });
  }
  if (length > limit.maxBytes) {
    throw new AppError(limit.failure, { params: { reason: "size" }, fields: { [field]: "imageSize" } });
  }
}

/**
 * Every refused upload closes its connection: the body may still be on its way, and reading it
 * to its end (to keep the connection alive) is exactly what a refusal must not do.
 */
async function closeOnRefusal(request: FastifyRequest, reply: FastifyReply) {
  if (request.method === "PATCH" && reply.statusCode >= 400) reply.header("connection", "close");
}

export async function userUploadRoutes(app: KassaApp) {
  app.addHook("onRequest", refuseOversized);
  app.addHook("onSend", closeOnRefusal);
  await registerUploads(app, VERIFICATION_FILE_FIELDS.length, VERIFICATION_TEXT_FIELDS.length);

  defineRoute(
    app,
    routes.updateAvatar,
    {
      summary: "Upload the avatar (multipart, one file in the field `avatar`)",
      description:
        "JPEG or PNG by content (not the name or declared type), at most 5 MB, exactly one file and " +
        "no other field; else 400 IMAGE_UPDATE_FAILED ('Error updating image', params.reason " +
        "type | size | count | missing | field | malformed). At most 20 uploads an hour per user " +
        "(RATE_LIMIT_UPLOAD_ACCOUNT, shared with verification), else 429 RATE_LIMITED.",
      consumes: MULTIPART,
      // Room for one 5 MB image and the multipart framing; larger requests are refused before parsing.
      bodyLimit: IMAGE_MAX_BYTES + 64 * 1024,
    },
    async ({ ctx, auth, request }) => {
      await ctx.limiter.consume(uploadKey(auth.userId), ctx.env.RATE_LIMITS.uploadAccount);
      const upload = await readImageUpload(request, { files: [AVATAR_FILE_FIELD], failure: "IMAGE_UPDATE_FAILED" });
      const row = await setAvatar(ctx, auth.userId, upload);
      return { user: await userView(ctx.db, ctx.clock, row) };
    },
  );

  app.get(
    "/user/avatar/:file",
    {
      schema: {
        tags: ["user", "settings"],
        operationId: "avatarFile",
        security: [],
        summary: "An avatar image by its random stored name (the User's avatarUrl)",
        params: z.object({ file: text().check(z.maxLength(64)) }),
      },
    },
    async (request, reply) => {
      const file = storedPath(app.env.UPLOAD_DIR, AVATAR_FOLDER, request.params.file);
      if (!file || !fs.existsSync(file)) throw new AppError("NOT_FOUND");
      return reply
        .type(request.params.file.endsWith(".png") ? "image/png" : "image/jpeg")
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "private, max-age=86400")
        .header("content-security-policy", "default-src 'none'")
        .send(fs.createReadStream(file));
    },
  );

  defineRoute(
    app,
    routes.requestVerification,
    {
      summary: "Send the verification request (multipart: four fields and three photos)",
      description:
        "Fields fullName, dateOfBirth (ISO date, 18 or older), familyStatus (single | married | " +
        "divorced | widowed), documentNumber; files documentPhoto, loginPhoto, walletPhoto, one " +
        "each, JPEG or PNG by content, at most 5 MB. Any problem: 400 VERIFICATION_REQUEST_FAILED " +
        "('Error sending verification request', params.reason). Status becomes in_process.",
      consumes: MULTIPART,
      bodyLimit: VERIFICATION_FILE_FIELDS.length * IMAGE_MAX_BYTES + 64 * 1024,
    },
    async ({ ctx, auth, request }) => {
      await ctx.limiter.consume(uploadKey(auth.userId), ctx.env.RATE_LIMITS.uploadAccount);
      const upload = await readImageUpload(request, {
        files: VERIFICATION_FILE_FIELDS,
        fields: VERIFICATION_TEXT_FIELDS,
        failure: "VERIFICATION_REQUEST_FAILED",
      });
      return requestVerification(ctx, auth.userId, upload);
    },
  );

  defineRoute(
    app,
    routes.userDataVerification,
    { summary: "The caller's verification request and its status (null when never requested)" },
    ({ ctx, auth }) => getVerification(ctx.db, auth.userId),
  );
}
