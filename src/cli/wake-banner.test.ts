import { describe, expect, test } from 'vitest';
import type { WakeState } from '../runtime/wake-state.js';
import { wakeBanner } from './wake-banner.js';

const state: WakeState = {
  waking: true,
  brief: '/home/ada/app/.flower/notes/brief.md',
  goal: '/home/ada/app/.flower/notes/goal.md',
  checks: 4,
  woke: 2,
  steps: { clarify: 's1', work: 's2' },
  context: 36_849,
};
const options = { workspace: '/home/ada/app', env: { HOME: '/home/ada' }, lang: 'en' as const, color: false };

describe('wakeBanner', () => {
  test('says where, what was found and which wake this is, with the home directory as ~', () => {
    expect(wakeBanner(state, options)).toBe(
      '<- Resuming in ~/app · brief confirmed · 4 goal checks · work context 36.8K · wake #3',
    );
  });

  test('leaves out the goal without checks and the context when unknown', () => {
    expect(wakeBanner({ ...state, checks: 0, context: 0, woke: 0 }, options)).toBe(
      '<- Resuming in ~/app · brief confirmed · wake #1',
    );
  });

  test('colours the head cyan and the details dim', () => {
    const colored = wakeBanner(state, { ...options, color: true });
    expect(colored.startsWith('\u001b[36m<- Resuming in ~/app\u001b[39m \u001b[2m· brief confirmed')).toBe(
      true,
    );
  });
});
