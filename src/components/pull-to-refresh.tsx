import { type ReactNode, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

/** How far (px) the finger must pull down from the top before letting go refreshes. */
const PULL_THRESHOLD_PX = 64;

/**
 * Pull-to-refresh for touch screens: pulling down while the page is scrolled to the top shows a hint
 * that grows with the pull; letting go past the threshold calls `onRefresh`. Mouse and keyboard users
 * have the refresh control instead.
 */
export function PullToRefresh({
  onRefresh,
  refreshing,
  children,
}: {
  onRefresh: () => void;
  refreshing: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation("money");
  const [pull, setPull] = useState(0);
  const start = useRef<number | null>(null);
  const pulled = useRef(0);
  const refresh = useRef(onRefresh);
  refresh.current = onRefresh;

  useEffect(() => {
    const onStart = (event: TouchEvent) => {
      start.current = window.scrollY <= 0 && event.touches.length === 1 ? (event.touches[0]?.clientY ?? null) : null;
    };
    const onMove = (event: TouchEvent) => {
      if (start.current === null) return;
      const distance = (event.touches[0]?.clientY ?? start.current) - start.current;
      pulled.current = distance > 0 && window.scrollY <= 0 ? Math.min(distance / 2, PULL_THRESHOLD_PX * 1.5) : 0;
      setPull(pulled.current);
    };
    const onEnd = () => {
      if (start.current !== null && pulled.current >= PULL_THRESHOLD_PX) refresh.current();
      start.current = null;
      pulled.current = 0;
      setPull(0);
    };
    window.addEventListener("touchstart", onStart, { passive: true });
    window.addEventListener("touchmove", onMove, { passive: true });
    window.addEventListener("touchend", onEnd);
    window.addEventListener("touchcancel", onEnd);
    return () => {
      window.removeEventListener("touchstart", onStart);
      window.removeEventListener("touchmove", onMove);
      window.removeEventListener("touchend", onEnd);
      window.removeEventListener("touchcancel", onEnd);
    };
  }, []);

  const shown = refreshing ? PULL_THRESHOLD_PX / 2 : pull / 2;
  return (
    <>
      <div
        className="pull-to-refresh"
        style={{ height: shown }}
        data-testid="pull-to-refresh"
        data-state={refreshing ? "refreshing" : pull >= PULL_THRESHOLD_PX ? "release" : pull > 0 ? "pull" : "idle"}
        aria-hidden={!refreshing && pull === 0}
      >
        {refreshing || pull > 0 ? (
          <span className="pull-to-refresh-label" role={refreshing ? "status" : undefined}>
            {refreshing ? t("refreshing") : pull >= PULL_THRESHOLD_PX ? t("releaseToRefresh") : t("pullToRefresh")}
          </span>
        ) : null}
      </div>
      {children}
    </>
  );
}
