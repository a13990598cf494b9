import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { AppRoot } from "@telegram-apps/telegram-ui";
import { Provider as JotaiProvider } from "jotai";
import { type ReactNode, Suspense } from "react";
import { AlertsHost } from "@/components/alerts-host";
import { OfflineBanner } from "@/components/offline-banner";
import { SpinnerScreen } from "@/components/spinner-screen";
import type { AppStore } from "@/lib/store";
import { useAppearance, useTelegram, useUiPlatform } from "@/tma/hooks";

/** telegram-ui's root, light or dark with Telegram's theme (or the system's on the web). */
function ThemedRoot({ children }: { children: ReactNode }) {
  const appearance = useAppearance();
  const platform = useUiPlatform();
  const telegram = useTelegram();
  return (
    <AppRoot
      appearance={appearance}
      platform={platform}
      className="app-root"
      data-appearance={appearance}
      data-platform={platform}
      data-telegram={telegram ? telegram.platform : undefined}
    >
      {children}
    </AppRoot>
  );
}

/** Everything a screen needs around it: state, remote data, the look, alerts. */
export function AppProvider({
  store,
  queryClient,
  children,
}: {
  store: AppStore;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <JotaiProvider store={store}>
      <QueryClientProvider client={queryClient}>
        <ThemedRoot>
          <OfflineBanner />
          <Suspense fallback={<SpinnerScreen />}>{children}</Suspense>
          <AlertsHost />
        </ThemedRoot>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
