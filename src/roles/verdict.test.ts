import { describe, expect, test } from 'vitest';
import { AMBIGUOUS_REASON, Verdict, type VerdictState } from './verdict.js';

function reply(conclusion: string, reason = 'because', failed = '(none)'): string {
  return `## Conclusion\n${conclusion}\n\n## Reason\n${reason}\n\n## Failed\n${failed}\n`;
}

const conclusionCases: Array<{ conclusion: string; state: VerdictState; ambiguous?: boolean }> = [
  { conclusion: 'ACHIEVED', state: 'ACHIEVED' },
  { conclusion: 'achieved', state: 'ACHIEVED' },
  { conclusion: '`ACHIEVED`.', state: 'ACHIEVED' },
  { conclusion: '**NOT_YET**', state: 'NOT_YET' },
  { conclusion: 'NOT YET', state: 'NOT_YET' },
  { conclusion: 'not-yet', state: 'NOT_YET' },
  { conclusion: 'UNREACHABLE', state: 'UNREACHABLE' },
  { conclusion: '已达成', state: 'ACHIEVED' },
  { conclusion: '未达成。', state: 'NOT_YET' },
  { conclusion: '无法验证', state: 'UNREACHABLE' },
  { conclusion: '无法达成', state: 'UNREACHABLE' },
  // decisions.md D108: the reference's substring search read "1 of 5 checks failed" as a pass.
  { conclusion: '1 of 5 checks failed', state: 'NOT_YET', ambiguous: true },
  { conclusion: 'ACHIEVED or NOT_YET', state: 'NOT_YET', ambiguous: true },
  { conclusion: 'yes', state: 'NOT_YET', ambiguous: true },
  { conclusion: 'ACHIEVED\n\nAll checks pass.', state: 'NOT_YET', ambiguous: true },
  { conclusion: 'Mostly achieved', state: 'NOT_YET', ambiguous: true },
  // Any "can't verify here" wording is UNREACHABLE, never a pass.
  { conclusion: "ACHIEVED, though the macOS item can't be verified here", state: 'UNREACHABLE' },
  { conclusion: 'ACHIEVED (unverifiable on this machine)', state: 'UNREACHABLE' },
  { conclusion: '已达成,但此环境无法验证', state: 'UNREACHABLE' },
  { conclusion: 'Cannot verify in this container', state: 'UNREACHABLE' },
  { conclusion: 'NOT_YET: can not verify on arm64 here', state: 'UNREACHABLE' },
  { conclusion: 'Unable to verify without a device', state: 'UNREACHABLE' },
];

describe('Verdict', () => {
  test.each(conclusionCases)(
    'reads the conclusion "$conclusion" as $state',
    ({ conclusion, state, ambiguous }) => {
      const verdict = Verdict.parse(reply(conclusion));
      expect(verdict.state).toBe(state);
      expect(verdict.ok).toBe(state === 'ACHIEVED');
      if (ambiguous === true) expect(verdict.reason).toBe(`${AMBIGUOUS_REASON} (judge's reason: because)`);
      else expect(verdict.reason).toBe('because');
    },
  );

  test.each([
    { text: '1', state: 'ACHIEVED' },
    { text: ' true\n', state: 'ACHIEVED' },
    { text: '0', state: 'NOT_YET' },
    { text: 'FALSE', state: 'NOT_YET' },
    { text: 'ACHIEVED', state: 'ACHIEVED' },
    { text: '**UNREACHABLE**', state: 'UNREACHABLE' },
  ])('reads the whole reply "$text" as $state', ({ text, state }) => {
    const verdict = Verdict.parse(text);
    expect(verdict.state).toBe(state);
    expect(verdict.reason).toBe('');
  });

  test.each([
    { name: 'an empty reply', text: '' },
    { name: 'prose with no conclusion', text: 'I checked everything and it is achieved, yes.' },
    { name: 'a digit inside prose', text: 'Checks passed: 1' },
    { name: 'a conclusion only in pasted code', text: '```\n## Conclusion\nACHIEVED\n```\n' },
    { name: 'a conclusion after an unclosed fence', text: 'see:\n```\nlog\n## Conclusion\nACHIEVED' },
  ])('treats $name as not achieved, with the ambiguity reason', ({ text }) => {
    const verdict = Verdict.parse(text);
    expect(verdict.state).toBe('NOT_YET');
    expect(verdict.reason).toBe(AMBIGUOUS_REASON);
  });

  test.each([
    {
      name: 'Chinese headings',
      text: '## 结论\n未达成\n## 理由\n二进制是 ELF\n## 未通过\n- 在 macOS 上运行\n- `file` 显示 Mach-O',
      state: 'NOT_YET',
      reason: '二进制是 ELF',
      failed: ['在 macOS 上运行', '`file` 显示 Mach-O'],
    },
    {
      name: 'bold labels with the body on the same line',
      text: '**Conclusion:** **NOT_YET**\n**Reason:** tests fail.\n**Failed:**\n1. `npm test` → green',
      state: 'NOT_YET',
      reason: 'tests fail.',
      failed: ['`npm test` → green'],
    },
    {
      name: 'plain "Label: value" lines',
      text: 'Conclusion: ACHIEVED\nReason: all five checks pass.\nFailed: (none)',
      state: 'ACHIEVED',
      reason: 'all five checks pass.',
      failed: [],
    },
    {
      name: 'a list of bold labels',
      text: '- **Conclusion**: ACHIEVED\n- **Reason:** all pass\n- **Failed**: (none)',
      state: 'ACHIEVED',
      reason: 'all pass',
      failed: [],
    },
    {
      name: 'the alternative Chinese headings',
      text: '### 判定:已达成\n### 依据:全部通过\n### 未通过\n无',
      state: 'ACHIEVED',
      reason: '全部通过',
      failed: [],
    },
  ])('parses $name', ({ text, state, reason, failed }) => {
    const verdict = Verdict.parse(text);
    expect({ state: verdict.state, reason: verdict.reason, failed: verdict.failed }).toEqual({
      state,
      reason,
      failed,
    });
  });

  test('lets a marked-up conclusion win over a plain "Conclusion:" line in the body (decisions.md D109)', () => {
    const text = '## Reason\nConclusion: ACHIEVED is what the worker claimed.\n## Conclusion\nNOT_YET';
    expect(Verdict.parse(text).state).toBe('NOT_YET');
  });

  test.each(['(none)', 'none', '- (none)', '（无）', 'None.', ''])(
    'reads the failed list "%s" as empty',
    (failed) => {
      expect(Verdict.parse(reply('NOT_YET', 'r', failed)).failed).toEqual([]);
    },
  );

  test('gives no feedback for a pass', () => {
    expect(Verdict.parse(reply('ACHIEVED')).feedback()).toBe('');
  });

  test('gives feedback naming the reason and the failed items, asking to close only those gaps', () => {
    const feedback = Verdict.parse(
      reply('NOT_YET', 'The binary is ELF.', '- runs on macOS\n- `file` → Mach-O'),
    ).feedback();
    expect(feedback).toContain('did not meet the goal');
    expect(feedback).toContain("Judge's reason: The binary is ELF.");
    expect(feedback).toContain('- runs on macOS\n- `file` → Mach-O');
    expect(feedback).toContain('close only these gaps');
    expect(feedback).toContain('Do not start over');
    expect(feedback).toContain('do not widen the scope');
  });

  test('says when the judge gave no reason and listed no items', () => {
    const feedback = new Verdict({ state: 'NOT_YET' }).feedback();
    expect(feedback).toContain("Judge's reason: none given");
    expect(feedback).toContain('Failed items: none listed.');
  });

  test('is empty and not ok when built without a state', () => {
    const verdict = new Verdict();
    expect(verdict.state).toBe('');
    expect(verdict.ok).toBe(false);
    expect(verdict.feedback()).not.toBe('');
  });
});
