/**
 * What the back office's actions share (its orders', saved cards' and subscriptions'): the JSON post to the
 * shop's back end, and the page's one live region (`#outcome`) that says what it did, or why not.
 */
import type { BackOfficeRefusal } from '../merchant/v1-back-office.js';

const outcome = document.querySelector<HTMLElement>('#outcome')!;

/** What the live region says: the outcome of the last action. */
export function say(text: string, kind: 'done' | 'error'): void {
  outcome.dataset['kind'] = kind;
  // Emptied first, so the same words said twice are announced twice.
  outcome.textContent = '';
  requestAnimationFrame(() => {
    outcome.textContent = text;
  });
}

/**
 * Posts an action to the shop's back end and says what came of it. `show` takes a successful answer and tells
 * whether it holds what the action was to bring; without it, the action is said to have failed.
 * @returns whether the action was done.
 */
export async function post<T extends { message: string }>(
  path: string,
  payload: object,
  show: (answer: Partial<T>) => boolean,
): Promise<boolean> {
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    const answer = (await response.json().catch(() => ({}))) as Partial<T & BackOfficeRefusal>;
    if (!response.ok || !show(answer)) {
      say(answer.message ?? `The shop answered HTTP ${response.status}.`, 'error');
      return false;
    }
    say(answer.message ?? 'Done.', 'done');
    return true;
  } catch (error) {
    say(`The shop could not be reached: ${error instanceof Error ? error.message : String(error)}`, 'error');
    return false;
  }
}

/**
 * `load` run one at a time: a call while it runs asks for one more run after it (what it read may be behind
 * already), and gets the running one's promise. `load` says its own failures: it never rejects.
 */
export function oneAtATime(load: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = load().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        void run();
      }
    });
    return running;
  };
  return run;
}
