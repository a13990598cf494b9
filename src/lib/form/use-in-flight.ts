import { useCallback, useRef, useState } from "react";

/**
 * A form's send that is out at most once: a second submit while one is out is ignored. Telegram Web A delivers both
 * presses of a double tap on the Main button before React renders the first one's `pending`, so the guard is a ref
 * set at once, not the state. For the forms that send without a TanStack mutation (the login, the statement), whose
 * requests the Main button's own guard (`useMainButton`) does not see.
 */
export function useInFlight(): [pending: boolean, run: (send: () => Promise<void>) => Promise<void>] {
  const [pending, setPending] = useState(false);
  const out = useRef(false);
  const run = useCallback(async (send: () => Promise<void>) => {
    if (out.current) return;
    out.current = true;
    setPending(true);
    try {
      await send();
    } finally {
      out.current = false;
      setPending(false);
    }
  }, []);
  return [pending, run];
}
