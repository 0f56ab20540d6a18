import { describe, expect, test } from 'vitest';
import { HandoffDocument } from './handoff-document.js';
import { handoffPrompt, successorPrompt } from './handoff-prompt.js';

describe('handoffPrompt', () => {
  const prompt = handoffPrompt(152_400, 200_000);

  test.each([
    { what: 'the used and window sizes', text: '152,400 of a 200,000-token window are used (76%)' },
    { what: 'that a new session takes over', text: 'a new session takes over' },
    { what: 'the doing section', text: '## Doing' },
    { what: 'the decided section, with its why', text: 'each decision with its why' },
    { what: 'dead ends as the costliest section', text: 'This is the costliest section' },
    { what: 'the "none yet" escape', text: '"none yet"' },
    { what: 'never inventing a dead end', text: 'Never invent one' },
    { what: 'an actionable next', text: '"run X; if Y, change Z"' },
    { what: 'the scene as paths', text: 'The paths of the key files, outputs and branches' },
    { what: 'a self-contained document', text: 'Self-contained' },
    { what: 'pointers, not content', text: 'Pointers, not content' },
    {
      what: 'the frozen brief and goal in notes/',
      text: 'Do not restate the brief or the goal: they are frozen in notes/',
    },
  ])('states $what', ({ text }) => {
    expect(prompt).toContain(text);
  });

  test('asks for the five sections in order, under headings the document parser reads', () => {
    const headings = prompt.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual(['## Doing', '## Decided', '## Dead ends', '## Next', '## Scene']);
    // The section descriptions under the headings are themselves a parseable document.
    const document = HandoffDocument.parse(prompt);
    expect(document.complete()).toBe(true);
  });

  test('leaves out the share when the window is unknown', () => {
    expect(handoffPrompt(1000, 0)).toContain('1,000 of a 0-token window are used.');
  });
});

describe('successorPrompt', () => {
  const document = new HandoffDocument({ doing: 'Porting the parser.', next: 'Run `npm test`.' });
  const prompt = successorPrompt(document, {
    handoffPath: '.flower/notes/handoff-work.md',
    notesDir: '.flower/notes',
  });

  test.each([
    { what: 'that it takes over', text: 'You are taking over' },
    {
      what: 'that it has only the document and the disk',
      text: 'You have only the handoff below and what is on disk',
    },
    { what: 'where the brief and goal are', text: 'The brief and the goal are frozen in .flower/notes' },
    { what: 'where the handoff is saved', text: 'saved at .flower/notes/handoff-work.md' },
    { what: 'to continue from Next', text: 'Continue from "Next"' },
    { what: 'not to restart', text: 'Do not start over' },
    { what: 'not to ask the human for background', text: 'do not ask the human for background' },
  ])('says $what', ({ text }) => {
    expect(prompt).toContain(text);
  });

  test('ends with the document itself', () => {
    expect(prompt.endsWith(`---\n\n${document.promptBlock()}`)).toBe(true);
    expect(prompt).not.toContain('could not write its handoff');
  });

  test('says so when flower wrote the document because the session could not', () => {
    const degraded = HandoffDocument.degraded('work', 'Build it.', { why: 'overflow' });
    expect(successorPrompt(degraded, { handoffPath: 'h.md', notesDir: 'notes' })).toContain(
      'The previous session could not write its handoff',
    );
  });
});
