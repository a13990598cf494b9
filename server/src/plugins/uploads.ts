/**
 * Multipart uploads, parsed at the edge so the services get plain files and fields: the route
 * plugin that takes uploads calls `registerUploads` (multipart is accepted only inside it) and a
 * route reads its request with `readImageUpload(request, { files, fields, failure })`. Every
 * problem (not multipart, a foreign or repeated field, a missing file, a file over 5 MB or not a
 * JPEG or PNG by content) is the route's error of the catalogue (`failure`) with `params.reason` and the field.
 */
import { IMAGE_MAX_BYTES, type ValidationCode } from "@contract";
import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors";
import { dimensionsAllowed, type ImageFile, imageKind, type ParsedUpload } from "../services/uploads";

/** Registers multipart parsing on `app` (a route plugin's own instance, not the whole API). */
export async function registerUploads(app: FastifyInstance, maxFiles: number, maxFields: number): Promise<void> {
  await app.register(multipart, {
    limits: {
      fileSize: IMAGE_MAX_BYTES,
      files: maxFiles,
      fields: maxFields,
      parts: maxFiles + maxFields,
      fieldSize: 1024,
    },
    throwFileSizeLimit: true,
  });
}

type UploadProblem = "type" | "size" | "count" | "missing" | "field" | "malformed";

class UploadError extends Error {
  constructor(
    readonly problem: UploadProblem,
    readonly field?: string,
  ) {
    super(`upload ${problem}${field ? ` (${field})` : ""}`);
    this.name = "UploadError";
  }
}

/**
 * Reads a multipart request: exactly one image in each of `fileFields`, text `textFields` only.
 * Throws UploadError for anything else.
 */
async function readParts(
  request: FastifyRequest,
  fileFields: readonly string[],
  textFields: readonly string[] = [],
): Promise<ParsedUpload> {
  if (!request.isMultipart()) throw new UploadError("malformed");
  const files = new Map<string, ImageFile>();
  const fields: Record<string, string> = {};
  try {
    const parts = request.parts({
      limits: {
        fileSize: IMAGE_MAX_BYTES,
        files: fileFields.length,
        fields: textFields.length,
        fieldSize: 1024,
        parts: fileFields.length + textFields.length,
        headerPairs: 100,
      },
    });
    for await (const part of parts) {
      if (part.type === "file") {
        if (!fileFields.includes(part.fieldname)) {
          part.file.resume();
          throw new UploadError("field", part.fieldname);
        }
        if (files.has(part.fieldname)) {
          part.file.resume();
          throw new UploadError("count", part.fieldname);
        }
        const buffer = await part.toBuffer();
        if (buffer.length === 0) throw new UploadError("missing", part.fieldname);
        const kind = await imageKind(buffer);
        if (!kind) throw new UploadError("type", part.fieldname);
        // A small file may declare a huge picture: its header's dimensions decide before it is kept.
        if (!(await dimensionsAllowed(buffer))) throw new UploadError("size", part.fieldname);
        files.set(part.fieldname, { field: part.fieldname, buffer, ...kind });
      } else {
        if (!textFields.includes(part.fieldname) || part.fieldname in fields) {
          throw new UploadError("field", part.fieldname);
        }
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    if (error instanceof UploadError) throw error;
    const code = (error as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw new UploadError("size");
    if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT") {
      throw new UploadError("count");
    }
    throw new UploadError("malformed");
  }
  for (const field of fileFields) if (!files.has(field)) throw new UploadError("missing", field);
  return { files, fields };
}

export interface UploadSpec {
  /** The file fields, one image each. */
  files: readonly string[];
  /** The text fields allowed beside them. */
  fields?: readonly string[];
  /** The route's error for any problem (docs/cabinet-rules.md#messages). */
  failure: "IMAGE_UPDATE_FAILED" | "VERIFICATION_REQUEST_FAILED";
}

/** The request's images and fields, or the route's error naming the problem and the field. */
export async function readImageUpload(request: FastifyRequest, spec: UploadSpec): Promise<ParsedUpload> {
  try {
    return await readParts(request, spec.files, spec.fields);
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    const field = error.field ?? (spec.files.length === 1 ? (spec.files[0] as string) : "files");
    const code: ValidationCode =
      error.problem === "type" ? "imageType" : error.problem === "size" ? "imageSize" : "required";
    throw new AppError(spec.failure, { params: { reason: error.problem }, fields: { [field]: code } });
  }
}
