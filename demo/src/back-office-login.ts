/**
 * The back office's door: the page's content and its live stream start only once the staff are logged in
 * (`POST /api/back-office/login`, which sets an HttpOnly session cookie; see back-office-login.ts).
 */
import type { BACK_OFFICE_LOGIN_PATHS } from '../merchant/back-office-login.js';

/** The back end's routes; typed by its own table, so a path that differs does not compile. */
const PATHS: Omit<typeof BACK_OFFICE_LOGIN_PATHS, 'logout'> = {
  login: '/api/back-office/login',
  session: '/api/back-office/session',
};

const form = document.querySelector<HTMLFormElement>('#login')!;
const password = document.querySelector<HTMLInputElement>('#login-password')!;
const outcome = document.querySelector<HTMLElement>('#login-outcome')!;
const content = document.querySelector<HTMLElement>('#back-office')!;

async function open(): Promise<void> {
  form.hidden = true;
  content.hidden = false;
  await import('./back-office-page.js');
}

async function loggedIn(): Promise<boolean> {
  const response = await fetch(PATHS.session);
  const body = (await response.json().catch(() => ({}))) as { loggedIn?: boolean };
  return body.loggedIn === true;
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  outcome.textContent = '';
  void (async () => {
    try {
      const response = await fetch(PATHS.login, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: password.value }),
      });
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      if (!response.ok) {
        outcome.textContent = body.message ?? `The shop answered HTTP ${response.status}.`;
        password.select();
        return;
      }
      password.value = '';
      await open();
    } catch (error) {
      outcome.textContent = `The shop could not be reached: ${error instanceof Error ? error.message : String(error)}`;
    }
  })();
});

if (await loggedIn().catch(() => false)) await open();
else {
  form.hidden = false;
  password.focus();
}
