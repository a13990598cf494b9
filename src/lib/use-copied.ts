import { useCallback, useEffect, useState } from "react";

/** How long a Copy button says "Copied" before it says "Copy" again. */
const COPIED_MS = 2000;

/**
 * "Copied" for a moment after a copy, then back to "Copy" (so a second copy is told too): every Copy button of
 * the app (a wallet address, the details' values, the referral link).
 */
export function useCopied(): [boolean, () => void] {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return [copied, useCallback(() => setCopied(true), [])];
}
