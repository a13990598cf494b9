/** The texts the app should show, read from the locale files the app itself loads. */
import { readFileSync } from "node:fs";

export type Lng = "en" | "ru" | "de" | "kk";
export const LANGUAGES: Lng[] = ["en", "ru", "de", "kk"];

export function text(lng: Lng, ns: string, path: string): string {
  const data = JSON.parse(readFileSync(`locales/${lng}/${ns}.json`, "utf8")) as Record<string, unknown>;
  let node: unknown = data;
  for (const key of path.split(".")) node = (node as Record<string, unknown>)[key];
  if (typeof node !== "string") throw new Error(`No text ${lng}/${ns}:${path}`);
  return node;
}
