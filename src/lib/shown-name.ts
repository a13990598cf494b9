/**
 * The name the cabinet greets an investor by: the full name when there is one, else the login (the app's welcome,
 * and the one the launcher paints before the app's code).
 */
export function shownName(user: { fullName?: string | null; login: string }): string {
  return user.fullName || user.login;
}
