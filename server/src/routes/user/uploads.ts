/**
 * Multipart calls of the user group (spec §7): `PATCH /user/avatar` and `PATCH
 * /user-data/verification`, the verification status, and the avatar served back. Multipart is
 * accepted only inside this plugin. The avatar file route needs no session: `<img src>` cannot
 * send a bearer token, so the name itself (128 random bits, only ever shown to its owner in
 * `avatarUrl`) is the capability; it is served with the type found by content and `nosniff`.
 */
import fs from "node:fs";
import { AVATAR_FILE_FIELD, IMAGE_MAX_BYTES, routes, VERIFICATION_FILE_FIELDS } from "@contract";
import multipart from "@fastify/multipart";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors";
import { requireUser } from "../../plugins/auth";
import { readImageUpload, storedPath, UploadError } from "../../services/uploads";
import { userView } from "../../services/users";
import { AVATAR_FOLDER, getVerification, requestVerification, setAvatar } from "../../services/verification";
import { withErrors } from "../responses";

const tags = ["user", "settings"];
const security = [{ bearer: [] }];
const VERIFICATION_TEXT_FIELDS = ["fullName", "dateOfBirth", "familyStatus", "documentNumber"] as const;

function uploadFailure(code: "IMAGE_UPDATE_FAILED" | "VERIFICATION_REQUEST_FAILED", error: UploadError): AppError {
  const fields: Record<string, "imageType" | "imageSize" | "required"> = {};
  const field = error.field ?? (code === "IMAGE_UPDATE_FAILED" ? AVATAR_FILE_FIELD : "files");
  if (error.problem === "type") fields[field] = "imageType";
  else if (error.problem === "size") fields[field] = "imageSize";
  else fields[field] = "required";
  return new AppError(code, { params: { reason: error.problem }, fields });
}

export const userUploadRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, {
    limits: { fileSize: IMAGE_MAX_BYTES, files: 3, fields: 4, parts: 7, fieldSize: 1024 },
    throwFileSizeLimit: true,
  });
  const uploadDir = app.env.UPLOAD_DIR;

  app.patch(
    routes.updateAvatar.path,
    {
      onRequest: app.authenticate,
      // Room for one 5 MB image and the multipart framing; larger requests are refused before parsing.
      bodyLimit: IMAGE_MAX_BYTES + 64 * 1024,
      schema: {
        tags,
        summary: "Upload the avatar (multipart, one file in the field `avatar`)",
        description:
          "JPEG or PNG by content (not the name or declared type), at most 5 MB, exactly one file and " +
          "no other field; else 400 IMAGE_UPDATE_FAILED ('Error updating image', params.reason " +
          "type | size | count | missing | field | malformed).",
        security,
        consumes: ["multipart/form-data"],
        response: withErrors({ 200: routes.updateAvatar.response }),
      },
    },
    async (request) => {
      const auth = requireUser(request);
      let upload: Awaited<ReturnType<typeof readImageUpload>>;
      try {
        upload = await readImageUpload(request, [AVATAR_FILE_FIELD]);
      } catch (error) {
        if (error instanceof UploadError) throw uploadFailure("IMAGE_UPDATE_FAILED", error);
        throw error;
      }
      const row = await setAvatar({ db: app.db, uploadDir }, auth.userId, upload);
      return { user: await userView(app.db, app.clock, row) };
    },
  );

  app.get(
    "/user/avatar/:file",
    {
      schema: {
        tags,
        summary: "An avatar image by its random stored name (the User's avatarUrl)",
        params: z.object({ file: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const file = storedPath(uploadDir, AVATAR_FOLDER, request.params.file);
      if (!file || !fs.existsSync(file)) throw new AppError("NOT_FOUND");
      return reply
        .type(request.params.file.endsWith(".png") ? "image/png" : "image/jpeg")
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "private, max-age=86400")
        .header("content-security-policy", "default-src 'none'")
        .send(fs.createReadStream(file));
    },
  );

  app.patch(
    routes.requestVerification.path,
    {
      onRequest: app.authenticate,
      bodyLimit: VERIFICATION_FILE_FIELDS.length * IMAGE_MAX_BYTES + 64 * 1024,
      schema: {
        tags,
        summary: "Send the verification request (multipart: four fields and three photos)",
        description:
          "Fields fullName, dateOfBirth (ISO date, 18 or older), familyStatus (single | married | " +
          "divorced | widowed), documentNumber; files documentPhoto, loginPhoto, walletPhoto, one " +
          "each, JPEG or PNG by content, at most 5 MB. Any problem: 400 VERIFICATION_REQUEST_FAILED " +
          "('Error sending verification request', params.reason). Status becomes in_process.",
        security,
        consumes: ["multipart/form-data"],
        response: withErrors({ 200: routes.requestVerification.response }),
      },
    },
    async (request) => {
      const auth = requireUser(request);
      let upload: Awaited<ReturnType<typeof readImageUpload>>;
      try {
        upload = await readImageUpload(request, VERIFICATION_FILE_FIELDS, VERIFICATION_TEXT_FIELDS);
      } catch (error) {
        if (error instanceof UploadError) throw uploadFailure("VERIFICATION_REQUEST_FAILED", error);
        throw error;
      }
      return requestVerification({ db: app.db, clock: app.clock, uploadDir }, auth.userId, upload);
    },
  );

  app.get(
    routes.userDataVerification.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The caller's verification request and its status (null when never requested)",
        security,
        response: withErrors({ 200: routes.userDataVerification.response }),
      },
    },
    async (request) => getVerification(app.db, requireUser(request).userId),
  );
};
