// Lines a person reads once: the handoff notice (its "writing" line, then the document) and a typed line
// (acknowledged where it was typed, so its queued event adds nothing; its delivery is news).
import picocolors from 'picocolors';
import { describe, expect, test } from 'vitest';
import { uiText } from '../config/ui-text.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { formatEvent, type FormatOptions, type RenderState } from './format-event.js';

const plain: FormatOptions = { verbose: false, width: 120, colors: picocolors.createColors(false) };
const state: RenderState = { contextTokens: 152_300, totalUsd: 0.09, elapsedS: 25 };
const base = { at: 0, step: 'work' };

function shown(events: FlowerEvent[]): string[] {
  return events.flatMap((event) => formatEvent(event, state, plain));
}

describe('said once', () => {
  test('the handoff notice: the context line comes with "writing", the document does not repeat it', () => {
    const figures = { context: 152_300, window: 200_000, threshold: 150_000 };
    const lines = shown([
      {
        ...base,
        kind: 'handoff',
        phase: 'writing',
        text: uiText('ho.writing', { ctx: '152.3', win: 200 }),
        ...figures,
      },
      {
        ...base,
        kind: 'handoff',
        phase: 'done',
        text: '',
        ...figures,
        path: '/tmp/ws/.flower/notes/handoff-work.md',
        sections: { doing: 'Round 2', decided: 'Plain Node', deadends: 'none', next: 'Write README.md' },
      },
    ]);
    expect(lines.filter((line) => line.includes('152.3/200K'))).toEqual([
      '# context 152.3/200K — the session is writing its handoff document…',
    ]);
    expect(lines).toContain('# Handoff: what the new session is told');
    expect(lines.filter((line) => /handoff/i.test(line) && line.startsWith('#'))).toHaveLength(2);
  });

  test('a typed line: nothing for its queued event, one line when the agent takes it', () => {
    const mail = { ...base, kind: 'mail' as const, id: 'm1', amended: true, text: 'also a --utc flag' };
    expect(shown([{ ...mail, state: 'queued' }])).toEqual([]);
    expect(shown([{ ...mail, state: 'delivered' }])).toEqual(['  + delivered also a --utc flag']);
  });
});
