/** What the login screen may be handed (navigation state): the login to prefill, after a password reset. */
export interface SignInAgainState {
  login: string;
}

export function prefilledLogin(state: unknown): string | undefined {
  const login = (state as Partial<SignInAgainState> | null)?.login;
  return typeof login === "string" ? login : undefined;
}
