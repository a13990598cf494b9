/** Moves the focus to a form's field by name (the first one with an error, after a submit attempt). */
export function focusField(form: HTMLFormElement | null, name: string): void {
  const field = form?.elements.namedItem(name);
  if (field instanceof HTMLElement) field.focus();
}
