/**
 * Patches: a put of a document that exists is journalled as a patch of what changed when that is shorter, so
 * a small change of a large document (an attempt added to a Purchase) costs a small record.
 */

import { isPlainObject } from '../../core/plain-object.js';

/**
 * A patch: steps applied in order, each a path of object keys and array indices from the document's root
 * and what to do there. `[path, value]` sets the member (an index one past an array's end appends);
 * `[path]` removes an object's member, or cuts an array at that index.
 */
type PatchStep = [path: Array<string | number>, value?: unknown];

/** Returned by {@link applyPatch} for a patch whose paths do not lead anywhere in the document. */
export const invalidPatch = Symbol('invalid patch');

/**
 * The patch from `before` to `after` as JSON text, or undefined when the whole document is not longer.
 * Applied to `before`, it gives `after` down to the order of object members, so what a restart loads
 * serializes byte for byte as what was stored.
 */
export function patchText(before: unknown, after: unknown, wholeLength: number): string | undefined {
  const steps: PatchStep[] = [];
  diff(before, after, [], steps);
  const text = JSON.stringify(steps);
  return text.length < wholeLength ? text : undefined;
}

function diff(before: unknown, after: unknown, path: Array<string | number>, steps: PatchStep[]): void {
  if (before === after) return;
  if (Array.isArray(before) && Array.isArray(after)) {
    const common = Math.min(before.length, after.length);
    for (let index = 0; index < common; index++) {
      path.push(index);
      diff(before[index], after[index], path, steps);
      path.pop();
    }
    if (after.length < before.length) steps.push([[...path, after.length]]);
    for (let index = common; index < after.length; index++) steps.push([[...path, index], after[index]]);
    return;
  }
  if (isPlainObject(before) && isPlainObject(after) && keptInOrder(before, after)) {
    for (const key of Object.keys(before)) {
      if (!Object.hasOwn(after, key)) steps.push([[...path, key]]);
    }
    for (const key of Object.keys(after)) {
      if (Object.hasOwn(before, key)) {
        path.push(key);
        diff(before[key], after[key], path, steps);
        path.pop();
      } else steps.push([[...path, key], after[key]]);
    }
    return;
  }
  steps.push([[...path], after]);
}

/** True when the members `after` keeps of `before` come first in it, in the same order: added ones follow. */
function keptInOrder(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  const afterKeys = Object.keys(after);
  let position = 0;
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key)) continue;
    if (afterKeys[position] !== key) return false;
    position++;
  }
  return true;
}

/** Applies a journalled patch to a loaded document (changing it in place) and returns the result. */
export function applyPatch(document: unknown, steps: unknown): unknown {
  if (!Array.isArray(steps)) return invalidPatch;
  let root = document;
  for (const step of steps) {
    if (!Array.isArray(step) || !Array.isArray(step[0]) || step.length < 1 || step.length > 2) {
      return invalidPatch;
    }
    const path = step[0] as unknown[];
    if (path.length === 0) {
      if (step.length !== 2) return invalidPatch;
      root = step[1];
      continue;
    }
    let parent: unknown = root;
    for (const key of path.slice(0, -1)) {
      parent = member(parent, key);
      if (parent === invalidPatch) return invalidPatch;
    }
    const last = path[path.length - 1];
    if (Array.isArray(parent) && typeof last === 'number' && Number.isSafeInteger(last) && last >= 0) {
      if (last > parent.length) return invalidPatch;
      if (step.length === 2) parent[last] = step[1];
      else parent.length = last;
    } else if (isPlainObject(parent) && typeof last === 'string') {
      // defineProperty, so a member named __proto__ stays a member, as JSON.parse makes it.
      if (step.length === 2) {
        Object.defineProperty(parent, last, {
          value: step[1],
          writable: true,
          enumerable: true,
          configurable: true,
        });
      } else delete parent[last];
    } else return invalidPatch;
  }
  return root;
}

/** An existing member of an object or array, or `invalidPatch`. */
function member(container: unknown, key: unknown): unknown {
  if (Array.isArray(container) && typeof key === 'number' && key >= 0 && key < container.length) {
    return container[key];
  }
  if (isPlainObject(container) && typeof key === 'string' && Object.hasOwn(container, key)) {
    return container[key];
  }
  return invalidPatch;
}
