/**
 * telegram-ui's Section header, with the heading level a section has under its screen's title: an `h2`. The
 * library's own renders every section header as an `h1`, so a screen read out as a list of headings had a dozen
 * top-level ones beside its title. `vite.config.ts` puts this module in place of the library's
 * (`Section.js` imports it for every primitive `header`); the look (classes, typography per platform) is the
 * library's, from its pinned version.
 */
import { useHeaderComponents } from "@telegram-apps/telegram-ui/dist/components/Blocks/Section/components/SectionHeader/hooks/useHeaderComponents.js";
import { classNames } from "@telegram-apps/telegram-ui/dist/helpers/classNames.js";
import { usePlatform } from "@telegram-apps/telegram-ui/dist/hooks/usePlatform.js";
import type { HTMLAttributes, ReactNode } from "react";

export interface SectionHeaderProps extends HTMLAttributes<HTMLElement> {
  large?: boolean;
  children?: ReactNode;
}

export function SectionHeader({ large, className, children, ...rest }: SectionHeaderProps) {
  const platform = usePlatform();
  const { Default, Large } = useHeaderComponents();
  const Text = large ? Large : Default;
  return (
    <header
      className={classNames(
        "tgui-d0251b46536ac046",
        platform === "ios" && "tgui-b7217abb24e8763a",
        large && "tgui-34fd1a25cc171439",
        className,
      )}
      {...rest}
    >
      <Text Component="h2" className="tgui-9c200683b316fde6">
        {children}
      </Text>
    </header>
  );
}
