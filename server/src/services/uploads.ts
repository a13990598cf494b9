/**
 * Uploaded images (docs/cabinet-rules.md#field-rules, #limits): JPEG or PNG judged by content (magic bytes,
 * `file-type`), never by the file name or the declared type. The upload plugin (`plugins/uploads.ts`) parses
 * the request; the services get its files and fields. Files are stored under UPLOAD_DIR (outside any served
 * folder) with generated names of 128 random bits, written with mode 0600 via a temporary name and a rename.
 *
 * A file replaced by a new upload (`replaceImage`) is removed only after the row points at the new one, and
 * the row is changed under its lock, so parallel uploads each remove exactly the file they replaced and
 * leave the last one. Files nothing references (a crash between writing a file and its row, a temporary file
 * of an upload cut off) are removed by `sweepOrphanUploads`, which the scheduler runs at start and then
 * with the sweeper; a file younger than the grace period is left alone, as its row may be on its way.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { isNotNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { users, verificationRequests } from "../db/schema";

export const AVATAR_FOLDER = "avatars";
export const VERIFICATION_FOLDER = "verification";

/** How old an unreferenced file must be before the sweep removes it: far beyond any upload's request. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

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
/** The temporary name a file is written under before its rename. */
const TEMP_NAME = /^\.[0-9a-f]{32}\.(jpg|png)\.tmp$/;

/**
 * The largest side an accepted image may declare, and the most pixels: a photo from any phone fits, a
 * decompression bomb (a small file declaring 20,000 × 20,000 or 65,535 × 65,535) does not.
 */
export const IMAGE_MAX_SIDE = 10_000;
export const IMAGE_MAX_PIXELS = 50_000_000;

/**
 * Whether the dimensions in the image's header are within bounds, read by `image-size` (the header only,
 * nothing decoded). Every accepted type (JPEG, PNG) has them; an image whose header cannot be read is refused.
 */
export async function dimensionsAllowed(buffer: Buffer): Promise<boolean> {
  const { imageSize } = await import("image-size");
  try {
    const { width, height } = imageSize(buffer);
    if (!width || !height) return false;
    return width <= IMAGE_MAX_SIDE && height <= IMAGE_MAX_SIDE && width * height <= IMAGE_MAX_PIXELS;
  } catch {
    return false;
  }
}

export async function imageKind(buffer: Buffer): Promise<Pick<ImageFile, "ext" | "mime"> | null> {
  // Imported at the first upload (then kept by the module cache), not at start: most starts take none.
  const { fileTypeFromBuffer } = await import("file-type");
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

/**
 * Stores `file` under a new name, then lets `swap` point the row at it (inside its transaction, under the
 * row's lock) and return the name it replaced; the replaced file is removed only after that. When `swap`
 * fails the new file is removed and the old one stays.
 */
export async function replaceImage<T>(
  uploadDir: string,
  folder: string,
  file: ImageFile,
  swap: (name: string) => Promise<{ replaced: string | null; result: T }>,
): Promise<T> {
  const name = await storeImage(uploadDir, folder, file);
  let swapped: { replaced: string | null; result: T };
  try {
    swapped = await swap(name);
  } catch (error) {
    await removeImage(uploadDir, folder, name);
    throw error;
  }
  if (swapped.replaced !== name) await removeImage(uploadDir, folder, swapped.replaced);
  return swapped.result;
}

/** The stored names every row points at, per folder. */
async function referencedUploads(db: Database): Promise<Record<string, Set<string>>> {
  const avatars = await db.select({ name: users.avatarFile }).from(users).where(isNotNull(users.avatarFile));
  const requests = await db
    .select({
      documentPhoto: verificationRequests.documentPhoto,
      loginPhoto: verificationRequests.loginPhoto,
      walletPhoto: verificationRequests.walletPhoto,
    })
    .from(verificationRequests);
  return {
    [AVATAR_FOLDER]: new Set(avatars.map((row) => row.name as string)),
    [VERIFICATION_FOLDER]: new Set(requests.flatMap((row) => [row.documentPhoto, row.loginPhoto, row.walletPhoto])),
  };
}

/**
 * Removes the files of UPLOAD_DIR that no row references (and temporary files left by an upload cut
 * off) once they are older than `graceMs` (an hour). Only names of our own form are touched. Returns how
 * many.
 */
export async function sweepOrphanUploads(deps: { db: Database; uploadDir: string; graceMs?: number }): Promise<number> {
  // The machine's time, not the injected clock: file times are the machine's, and a development
  // clock moved ahead must not make an upload in flight look old.
  const before = Date.now() - (deps.graceMs ?? ORPHAN_GRACE_MS);
  // Listed before the rows are read: a file written after the listing is not looked at, and a row
  // written after the read points at a file younger than the grace period.
  const listed: Record<string, string[]> = {};
  for (const folder of [AVATAR_FOLDER, VERIFICATION_FOLDER]) {
    listed[folder] = await fs.readdir(path.join(deps.uploadDir, folder)).catch(() => []);
  }
  const referenced = await referencedUploads(deps.db);
  let removed = 0;
  for (const [folder, names] of Object.entries(listed)) {
    for (const name of names) {
      if (!(isStoredName(name) && !referenced[folder]?.has(name)) && !TEMP_NAME.test(name)) continue;
      const file = path.join(deps.uploadDir, folder, name);
      const stat = await fs.stat(file).catch(() => null);
      if (!stat?.isFile() || stat.mtimeMs > before) continue;
      await fs.rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}
