import { Cell, type CellProps, Navigation } from "@telegram-apps/telegram-ui";
import { Link } from "@/lib/router";

/** A telegram-ui Cell that navigates inside the app, with the platform's chevron (`after={null}` for none). */
export function LinkCell({
  to,
  replace,
  className,
  after = <Navigation />,
  ...props
}: Omit<CellProps, "Component"> & { to: string; replace?: boolean }) {
  return (
    <Cell
      Component={Link}
      className={className ? `link-cell ${className}` : "link-cell"}
      after={after}
      {...props}
      {...{ to, replace }}
    />
  );
}
