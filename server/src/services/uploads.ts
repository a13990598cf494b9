/**
 * Uploaded images (docs/cabinet-rules.md#field-rules, #limits): JPEG or PNG judged by content (magic bytes,
 * `file-type`), never by the file name or the declared type. The upload plugin (`plugins/uploads.ts`) parses
 * the request; the services get its files and fields. Files are stored under UPLOAD_DIR (outside any served
 * folder) with generated names of 128 random bits, written with mode 0600 via a temporary name and a rename.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { fileTypeFromBuffer } from "file-type";

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
