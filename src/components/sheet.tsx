/**
 * A bottom sheet (telegram-ui's Modal) that Telegram's controls know about: while it is open it owns
 * the bottom bar (a screen's Main button waits under it; a form inside it may show its own), and
 * Telegram's Back closes it — the top sheet first — before it leads anywhere else.
 */
import { Modal } from "@telegram-apps/telegram-ui";
import type { ComponentProps, ReactNode } from "react";
import { SheetContext, useSheetRegistration } from "@/tma/hooks";

export interface SheetProps extends Omit<ComponentProps<typeof Modal>, "open" | "onOpenChange" | "header"> {
  onClose(): void;
  /** What Telegram's Back does in the sheet (a step back inside it); closing it when not given. */
  onBack?(): void;
  children: ReactNode;
}

export function Sheet({ onClose, onBack, children, ...rest }: SheetProps) {
  const id = useSheetRegistration(onBack ?? onClose);
  return (
    <SheetContext.Provider value={id}>
      <Modal
        open
        onOpenChange={(open) => {
          if (!open) onClose();
        }}
        header={<Modal.Header />}
        aria-describedby={undefined}
        {...rest}
      >
        {children}
      </Modal>
    </SheetContext.Provider>
  );
}
