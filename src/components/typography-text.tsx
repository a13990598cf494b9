/**
 * telegram-ui's Subheadline and Headline, as plain text unless told otherwise. The library renders them as `h6` and
 * `h5` by default, and uses them for a Cell's subtitle and subhead, a Button's label, a Banner's lines, an avatar's
 * letters: a screen read out as a list of headings had one inside every Settings row and every button (Refill,
 * Copy, Close early, Logout). Headings are only where a section starts (the screen's `h1`, a sheet's and a section
 * header's `h2`, which say so). `vite.config.ts` puts this module in place of the library's own wherever the library
 * imports them; the look (classes, sizes per platform) is the library's, from its pinned version.
 */
import {
  type HeadlineProps,
  Headline as LibraryHeadline,
} from "@telegram-apps/telegram-ui/dist/components/Typography/Headline/Headline.js";
import {
  Subheadline as LibrarySubheadline,
  type SubheadlineProps,
} from "@telegram-apps/telegram-ui/dist/components/Typography/Subheadline/Subheadline.js";
import { forwardRef } from "react";

export const Subheadline = forwardRef<unknown, SubheadlineProps>(function Subheadline({ Component, ...rest }, ref) {
  return <LibrarySubheadline ref={ref} Component={Component ?? "span"} {...rest} />;
});

export function Headline({ Component, ...rest }: HeadlineProps) {
  return <LibraryHeadline Component={Component ?? "span"} {...rest} />;
}
