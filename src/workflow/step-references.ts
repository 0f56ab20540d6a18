/**
 * The check `new Workflow(...)` makes of the names one step gives of another (`resumeFrom`): a typo or a
 * later step would otherwise be found only at run time, after the earlier steps have spent money, with a
 * message that treats the typo as a real step that left no session.
 *
 * @module
 */
import { nearestName } from '../internal/nearest-name.js';
import type { Step } from './step.js';

/**
 * Throws a one-line `TypeError` for the first step whose `resumeFrom` names no step of `steps`, itself, or a
 * step that comes after it, with the nearest earlier name as a "did you mean" when there is one.
 */
export function checkReferences(steps: readonly Step[]): void {
  const names = steps.map((candidate) => candidate.name);
  steps.forEach((candidate, index) => {
    const target = candidate.resumeFrom;
    if (target === undefined || target === null || target === '') return;
    const earlier = names.slice(0, index);
    if (earlier.includes(target)) return;
    const where = names.indexOf(target);
    const problem =
      where === index
        ? 'which is the step itself'
        : where > index
          ? 'which comes after it (a step can only continue the session of an earlier step)'
          : 'which is not a step of this workflow';
    const near = nearestName(target, earlier);
    const hint = near === null ? '' : ` Did you mean '${near}'?`;
    const known = earlier.length === 0 ? 'none' : earlier.map((name) => `'${name}'`).join(', ');
    throw new TypeError(
      `Step '${candidate.name}' has resumeFrom: '${target}', ${problem}.${hint} Earlier steps: ${known}.`,
    );
  });
}
