import { useState } from "react";
import { shortenMiddle } from "@/lib/shorten";
import "./short-address.css";

/**
 * A wallet address as one unbroken line, "TQn9Y2…bLSE" (no address wrapping mid-string on a phone); a tap
 * shows the whole, another shortens it again. `data-value` keeps the whole for the page's scripts and tests.
 */
export function ShortAddress({ value, testId, className }: { value: string; testId?: string; className?: string }) {
  const [whole, setWhole] = useState(false);
  const short = shortenMiddle(value);
  if (short === value)
    return (
      <span className={`short-address ${className ?? ""}`} data-testid={testId} data-value={value}>
        {value}
      </span>
    );
  return (
    <button
      type="button"
      className={`short-address short-address-toggle ${whole ? "short-address-whole" : ""} ${className ?? ""}`}
      aria-expanded={whole}
      title={value}
      onClick={() => setWhole((open) => !open)}
      data-testid={testId}
      data-value={value}
    >
      {whole ? value : short}
    </button>
  );
}
