/**
 * The bell's badge for `unread` notifications: none at 0, the count up to 99, then "99+" (the header's bell, and the
 * bell the launcher paints before the app's code).
 */
export function unreadBadge(unread: number): string | undefined {
  if (unread <= 0) return undefined;
  return unread > 99 ? "99+" : String(unread);
}
