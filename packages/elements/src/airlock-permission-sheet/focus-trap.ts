const FOCUSABLE = 'button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** The elements Tab can reach inside `container`, in document order: enabled, not hidden, not inert. */
export function focusableElements(container: ParentNode): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) =>
      !element.matches(':disabled') &&
      element.closest('[hidden], [inert]') === null &&
      element.getClientRects().length > 0,
  );
}

/**
 * Keeps Tab inside a modal `<dialog>`: Tab on the last focusable element moves to the first, Shift+Tab on the first
 * moves to the last. A native modal dialog makes the page inert but still lets Tab leave for the browser's own UI;
 * this closes that gap. Call it from the dialog's `keydown` handler; `root` is the shadow root that holds the focus.
 */
export function trapFocus(event: KeyboardEvent, dialog: HTMLDialogElement, root: ShadowRoot): void {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
  const focusable = focusableElements(dialog);
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (first === undefined || last === undefined) {
    event.preventDefault();
    return;
  }
  const active = root.activeElement;
  const inside = active instanceof HTMLElement && dialog.contains(active);
  if (event.shiftKey && (!inside || active === first)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (!inside || active === last)) {
    event.preventDefault();
    first.focus();
  }
}
