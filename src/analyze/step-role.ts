/**
 * Which role ran a step, from its manifest label: `work/verdict#2` → `judge`, `work#round2` → `coordinator`,
 * `clarify` → `clarify`. A step of a workflow the user wrote keeps its own base name as its role.
 *
 * @module
 */
import { STEP_NAMES } from '../workflow/step-names.js';

/** The role of the step labelled `label`. */
export function stepRole(label: string): string {
  if (label.includes('/verdict#')) return 'judge';
  const base = label.split(/[#/]/)[0] ?? label;
  if (base === STEP_NAMES.work) return 'coordinator';
  if (base === STEP_NAMES.aside) return 'oracle';
  return base;
}
