// A modal dialog on the browser's own <dialog> and `showModal()`: the browser
// makes the page behind it inert (focus cannot leave it), closes it on Escape
// and gives focus back to what opened it. It replaced Radix's Dialog, whose
// focus trap, scroll lock and portal were most of /profile's route module
// for what the platform does (measured in docs/decisions/archive/0838-native-dialog-for-edit-profile.md).
//
// The element is always rendered (closed, it is not displayed), so closing is
// always `close()` and the browser's focus return runs; its contents are
// rendered only while it is open. Without JavaScript nothing opens it: the
// links that open it with JavaScript go to a page of their own.
import { useEffect, useId, useRef, type ReactNode } from "react";
import { useT } from "~/components/i18n";

export function ModalDialog({
  open,
  onClose,
  title,
  description,
  children,
}: {
  open: boolean;
  /** Called when the person closes it: Escape, the ✕ button, the backdrop. */
  onClose: () => void;
  title: string;
  /** Read by screen readers when it opens; not shown. */
  description: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const pressedOnBackdrop = useRef(false);
  const titleId = useId();
  const descriptionId = useId();
  const t = useT();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      // Escape and `close()` both end in the `close` event.
      onClose={onClose}
      // A click on the dialog element itself, not on its contents, is a
      // click on the backdrop: its box has no padding of its own. It must
      // also have started there: a text selection dragged out of a field
      // ends in a click on the dialog too, and must not close it.
      onPointerDown={(event) => {
        pressedOnBackdrop.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        if (pressedOnBackdrop.current && event.target === event.currentTarget)
          onClose();
      }}
      className="mx-0 mb-0 mt-auto max-h-[90dvh] w-full max-w-none overflow-y-auto rounded-t-2xl border-0 bg-white p-0 shadow-xl backdrop:bg-slate-900/50 sm:m-auto sm:max-w-md sm:rounded-2xl"
    >
      {open ? (
        <div className="p-4">
          <div className="mb-4 flex items-center justify-between">
            <h2 id={titleId} className="text-lg font-bold">
              {title}
            </h2>
            <button
              type="button"
              className="btn-secondary"
              aria-label={t("dialog.close")}
              onClick={onClose}
            >
              ✕
            </button>
          </div>
          <p id={descriptionId} className="sr-only">
            {description}
          </p>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
