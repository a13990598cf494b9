import type { LocalizedText } from "@contract";

/** A text the server keeps in four languages, in the interface language (English when it is unknown). */
export function localizedText(text: LocalizedText, lng: string): string {
  return text[lng as keyof LocalizedText] ?? text.en;
}
