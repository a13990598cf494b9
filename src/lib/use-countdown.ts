import { useEffect, useState } from "react";

/** Whole seconds left until `until` (epoch ms), ticking once a second; 0 when passed or unknown. */
export function useCountdown(until: number | null): number {
  // Read from the clock at every render: the render that sets a new `until` already shows its
  // countdown (a stored figure showed the old one for a frame, e.g. a resend offered again).
  const left = until === null ? 0 : Math.max(0, Math.ceil((until - Date.now()) / 1000));
  const [, setTick] = useState(0);
  useEffect(() => {
    if (until === null || until <= Date.now()) return;
    const timer = setInterval(() => {
      setTick((tick) => tick + 1);
      if (until <= Date.now()) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return left;
}
