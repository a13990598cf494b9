/**
 * Uploaded images (spec §5, §9): JPEG or PNG judged by content (magic bytes, `file-type`), never
 * by the file name or the declared type; at most 5 MB each; one file per field; nothing but the
 * expected fields. Files are stored under UPLOAD_DIR (outside any served folder) with generated
 * names of 128 random bits, written with mode 0600 via a temporary name and a rename.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { IMAGE_MAX_BYTES } from "@contract";
import type { FastifyRequest } from "fastify";
import { fileTypeFromBuffer } from "file-type";
import "@fastify/multipart";

export type UploadProblem = "type" | "size" | "count" | "missing" | "field" | "malformed";

export class UploadError extends Error {
  constructor(
    readonly problem: UploadProblem,
    readonly field?: string,
  ) {
    super(`upload ${problem}${field ? ` (${field})` : ""}`);
    this.name = "UploadError";
  }
}

export interface ImageFile {
  field: string;
  buffer: Buffer;
  ext: "jpg" | "png";
  mime: "image/jpeg" | "image/png";
}

export interface ParsedUpload {
  files: Map<string, ImageFile>;
  fields: Record<string, string>;
}

/** 128 random bits, hex, and the extension: unguessable, nothing of the user's name in it. */
const STORED_NAME = /^[0-9a-f]{32}\.(jpg|png)$/;
export const isStoredName = (name: string) => STORED_NAME.test(name);

export async function imageKind(buffer: Buffer): Promise<Pick<ImageFile, "ext" | "mime"> | null> {
  const type = await fileTypeFromBuffer(buffer);
  if (type?.mime === "image/jpeg") return { ext: "jpg", mime: "image/jpeg" };
  if (type?.mime === "image/png") return { ext: "png", mime: "image/png" };
  return null;
}

/**
 * Reads a multipart request: exactly one image in each of `fileFields`, text `textFields` only.
 * Throws UploadError for anything else (the route maps it to its §8 message).
 */
export async function readImageUpload(
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

/** Stores `file` under `<uploadDir>/<folder>/` with a new random name; returns that name. */
export async function storeImage(uploadDir: string, folder: string, file: ImageFile): Promise<string> {
  const dir = path.join(uploadDir, folder);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const name = `${randomBytes(16).toString("hex")}.${file.ext}`;
  const temp = path.join(dir, `.${name}.tmp`);
  await fs.writeFile(temp, file.buffer, { mode: 0o600, flag: "wx" });
  await fs.rename(temp, path.join(dir, name));
  return name;
}

/** Removes a stored file; a missing one is fine. */
export async function removeImage(uploadDir: string, folder: string, name: string | null): Promise<void> {
  if (!name || !isStoredName(name)) return;
  await fs.rm(path.join(uploadDir, folder, name), { force: true });
}

/** The path of a stored file, or null for a name that is not one of ours. */
export function storedPath(uploadDir: string, folder: string, name: string): string | null {
  return isStoredName(name) ? path.join(uploadDir, folder, name) : null;
}
