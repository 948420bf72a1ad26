/**
 * The hosted checkout page's alert, as its script shows it: where and as the server renders it (after the
 * page's heading, a titled `role="alert"` box), so that a check made in the page reads as one made by the
 * gateway. One alert at a time: a new one replaces the server's or an earlier one.
 */

/** Shows `content` under `title` in the page's alert, announced at once. */
export function showAlert(title: string, content: Node): void {
  removeAlert();
  const alert = document.createElement('div');
  alert.className = 'alert';
  alert.setAttribute('role', 'alert');
  alert.setAttribute('aria-labelledby', 'errors-title');
  const heading = document.createElement('h2');
  heading.id = 'errors-title';
  heading.textContent = title;
  alert.append(heading, content);
  document.querySelector('main h1')?.after(alert);
}

/** The page's alert, if it shows one. */
export function currentAlert(): HTMLElement | null {
  return document.querySelector('main > .alert');
}

export function removeAlert(): void {
  currentAlert()?.remove();
}
