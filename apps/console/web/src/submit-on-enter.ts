/**
 * Enter in a form's text field submits the form. The browser's own implicit submission needs a native submit button
 * once a form has two fields, and Web Awesome's `<wa-button type="submit">` is not one, so a form of two fields (the
 * sign-in) would otherwise ignore Enter. `requestSubmit` checks the fields as a click on the button would.
 */
export function submitOnEnter(event: KeyboardEvent): void {
  if (event.key !== 'Enter' || event.isComposing || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey)
    return;
  const field = event.target;
  if (!(field instanceof HTMLInputElement) || field.form === null) return;
  event.preventDefault();
  field.form.requestSubmit();
}
