/**
 * The phrases by which `flower demo`'s scripted model tells the roles of the go path apart: it decides from
 * the request alone, as a real model would.
 *
 * @module
 */
/** The phrases that tell the roles apart; each is pinned to the real prompt by the unit test. */
export const DEMO_MARKERS = {
  /** The clarifier's rule text (system prompt). */
  clarifier: '# Your role: clarifier',
  /** The coordinator's rule text (system prompt). */
  coordinator: '# Your role: coordinator',
  /** The judge's rule text (system prompt). */
  judge: '# Your role: judge',
  /** The bequest step's prompt (first user message). */
  bequest: 'The run is over. Write its bequest',
  /** The handoff writing turn (last user message). */
  handoff: 'Write that handoff now',
  /** The successor's first prompt (first user message). */
  successor: 'You are taking over',
  /** The judge's feedback that resumes the coordinator for another round (last user message). */
  feedback: 'The last round did not meet the goal',
  /** The second task brief (the worker's first user message). */
  readmeTask: 'Write README.md for wc.js',
} as const;
