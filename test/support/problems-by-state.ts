// The frame's and the picker's raised accessibility tests (web-test-runner) run each check on every state.
import type { Problems } from './accessibility-probe.js';

/**
 * Reaches each state in turn and runs `check` on it; answers the problems by state, leaving out the states
 * without any, so that a pass is `{}` and a failure lists them all.
 */
export async function problemsByState<T>(
  states: Record<string, () => Promise<T>>,
  check: (subject: T) => Promise<Problems> | Problems,
): Promise<Record<string, Problems>> {
  const found: Record<string, Problems> = {};
  for (const [state, reach] of Object.entries(states)) {
    const problems = await check(await reach());
    if (problems.length > 0) found[state] = problems;
  }
  return found;
}
