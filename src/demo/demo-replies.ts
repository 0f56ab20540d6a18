/**
 * What the scripted model of `flower demo` says (decisions.md D16): the request, the clarifying question, the
 * brief, the goal, the task briefs and reports, the program it writes, the handoff and the bequest. These are
 * model-facing texts and file contents, so they are English literals kept here, beside the script that sends
 * them ({@link demoScenario} in `demo-scenario.ts`); what the CLI itself prints lives in the UI catalog.
 *
 * The story: a word counter, `wc.js`, with a generated-input test whose log is long enough to be spilled; the
 * first round forgets the README the goal asks for, so the judge says NOT_YET; the second round hands off
 * and the successor adds it; the judge says ACHIEVED.
 *
 * @module
 */

/** The request the demo types for the user. */
export const DEMO_REQUEST = 'Build a small command-line word counter in Node.js, with tests.';

/** The clarifier's one question. */
export const DEMO_QUESTION = 'Where should the word counter read its text from?';

/** Its options; the demo's stand-in human picks the first. */
export const DEMO_OPTIONS: readonly string[] = [
  'A file given as an argument (node wc.js notes.txt)',
  'Standard input (cat notes.txt | node wc.js)',
];

/** The brief, with the input the human chose, or the clarifier's assumption when nobody answered. */
export function briefReply(answer: string | null): string {
  const input =
    answer === null
      ? '- Input: nobody answered the question, so assumed a file given as an argument.'
      : `- Input: ${answer} (the human's answer).`;
  return `## Goal
A dependency-free command-line word counter, wc.js, for someone who wants the line, word and character counts of a text file.

## Acceptance criteria
- Run \`node wc.js <file>\` → see the file's lines, words and characters.
- Run \`node wc.test.js\` → every case passes and it exits 0.
- Open README.md → see what wc.js does and how to run it.

## Boundaries
- Plain Node.js, no npm packages.
- No options beyond the file argument.

## Unknowns and assumptions
${input}
- A word is a run of non-space characters, as in wc.`;
}

/** The goal judge's job A: a goal and a three-item checklist. */
export const GOAL_REPLY = `## Goal
wc.js prints the line, word and character counts of a file, its tests pass, and a README explains how to run it.

## Checklist
- Run \`node wc.test.js\` → every case passes and it exits 0.
- Run \`node wc.js <file>\` → one line with the lines, words and characters of the file.
- Open README.md → it says what wc.js does and shows its usage.`;

/** The coordinator's task brief for the first dispatch. */
export const CODE_TASK = `Write wc.js (CommonJS, no dependencies): \`node wc.js <file>\` prints "<lines> <words> <characters> <file>"; export count(text). Write wc.test.js that checks count() on generated texts and exits 1 on any failure. Done when \`node wc.test.js\` passes.
Workbench: .flower/. Long output goes to .flower/artifacts/; reply with the path and a one-line conclusion.`;

/** The successor's task brief: the gap the judge found. */
export const README_TASK = `Write README.md for wc.js: one sentence on what it does, a Usage section with \`node wc.js <file>\` and its output, and how to run \`node wc.test.js\`. Run the usage example once to check it. Done when README.md exists and the example's output matches.
Workbench: .flower/. Long output goes to .flower/artifacts/; reply with the path and a one-line conclusion.`;

/** The program the worker writes. */
export const WC_SOURCE = `#!/usr/bin/env node
// desc: count the lines, words and characters of a text file, like wc
'use strict';
const { readFileSync } = require('node:fs');

/** Lines are newline characters, words are runs of non-space characters, characters are code points. */
function count(text) {
  const lines = (text.match(/\\n/g) || []).length;
  const words = (text.match(/\\S+/g) || []).length;
  const characters = [...text].length;
  return { lines, words, characters };
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node wc.js <file>');
    process.exit(2);
  }
  const { lines, words, characters } = count(readFileSync(file, 'utf8'));
  console.log(\`\${lines} \${words} \${characters} \${file}\`);
}

module.exports = { count };
`;

/** Its test: 150 generated cases, one TAP line each — a log of about 6,000 characters, so it is spilled. */
export const WC_TEST_SOURCE = `// desc: check count() from wc.js on 150 generated texts; one TAP line per case
'use strict';
const assert = require('node:assert');
const { count } = require('./wc.js');

const flowers = ['tulip', 'rose', 'daisy', 'lily', 'iris', 'orchid', 'peony', 'aster'];
let passed = 0;
let failed = 0;
for (let index = 1; index <= 150; index++) {
  const lineCount = (index % 4) + 1;
  const wordsPerLine = (index % 6) + 1;
  const lines = [];
  for (let line = 0; line < lineCount; line++) {
    const words = [];
    for (let word = 0; word < wordsPerLine; word++) words.push(flowers[(index + line + word) % flowers.length]);
    lines.push(words.join(index % 2 === 0 ? ' ' : '  '));
  }
  const text = lines.join('\\n') + '\\n';
  const expected = { lines: lineCount, words: lineCount * wordsPerLine, characters: text.length };
  try {
    assert.deepStrictEqual(count(text), expected);
    passed++;
    console.log(\`ok \${index} - \${expected.lines} lines, \${expected.words} words, \${expected.characters} characters\`);
  } catch (error) {
    failed++;
    console.log(\`not ok \${index} - \${String(error.message).split('\\n')[0]}\`);
  }
}
console.log(\`# pass \${passed}\`);
console.log(\`# fail \${failed}\`);
process.exit(failed === 0 ? 0 : 1);
`;

/** The README the second worker writes. */
export const README_SOURCE = `# wc.js

A tiny word counter: prints the number of lines, words and characters of a text file. Plain Node.js, no dependencies.

## Usage

    node wc.js notes.txt

prints \`<lines> <words> <characters> notes.txt\`, for example \`3 12 71 notes.txt\`.

## Tests

    node wc.test.js

checks 150 generated texts and exits 1 if any case fails.
`;

/** The first worker's report: the test outcome it saw, and where the spilled log is. */
export function codeReport(passed: boolean, log: string | null): string {
  const where = log === null ? 'the test log' : `the full log is in ${log}`;
  return passed
    ? `**Conclusion**: wc.js and wc.test.js are written; all 150 generated cases pass.
**Evidence**: \`node wc.test.js\` exited 0 with "# fail 0"; ${where}.
**Output**: wc.js, wc.test.js
**Unverified / risks**: only UTF-8 text files were considered.`
    : `**Conclusion**: wc.js and wc.test.js are written, but the test fails.
**Evidence**: \`node wc.test.js\` exited non-zero; ${where}.
**Output**: wc.js, wc.test.js
**Unverified / risks**: the failing cases are not fixed yet.`;
}

/** The second worker's report, quoting the one-line output of the usage example it ran. */
export function readmeReport(example: string): string {
  return `**Conclusion**: README.md is written: what wc.js does, its usage and how to run the tests.
**Evidence**: \`node wc.js README.md\` printed "${example}", the format the README shows.
**Output**: README.md
**Unverified / risks**: none.`;
}

/** The coordinator's text before its first dispatch. */
export const ROUND1_LOOK = 'Empty workspace. One worker can write the counter and its test.';

/** The coordinator's report at the end of round 1. */
export function round1Report(log: string | null): string {
  const where = log === null ? '' : ` The long test log was kept out of context: ${log}.`;
  return `wc.js and wc.test.js are in place and the worker reports all 150 generated cases passing.${where}`;
}

/** The round-1 report of a coordinator that lost its worker's report when flower stopped, and looked. */
export const ROUND1_RECHECKED =
  "wc.js and wc.test.js are in place; the worker's report was lost when flower stopped, so the judge should run the tests.";

/** The coordinator's first words in round 2, after the judge's feedback. */
export const ROUND2_LOOK = 'The judge wants a README with usage. A quick look at the workspace first.';

/** Its words if the glance result still reaches it before the handoff breaks the session. */
export const ROUND2_AFTER_LOOK = 'README.md is missing; a worker will add it.';

/** The handoff document the coordinator writes when its context is full. */
export const HANDOFF_REPLY = `## Doing
Round 2: the judge passed nothing yet because README.md is missing; wc.js and wc.test.js are done and their 150 cases pass.

## Decided
- Plain Node.js (CommonJS), no packages: the brief rules out installs.
- A word is a run of non-space characters, as in wc.

## Dead ends
none yet

## Next
Dispatch the coder worker to write README.md (what wc.js does, a Usage section with \`node wc.js <file>\`, how to run \`node wc.test.js\`), then report for the next verdict.

## Scene
- wc.js, wc.test.js in the workspace root
- .flower/notes/goal.md holds the checklist; the long test log is under .flower/spill/`;

/** The successor's text before its dispatch. */
export const SUCCESSOR_LOOK = 'Taking over from the handoff: the next step is the README.';

/** The successor's report, which ends round 2. */
export const ROUND2_REPORT =
  'README.md now documents wc.js: what it does, `node wc.js <file>` with its output, and `node wc.test.js`. wc.js and wc.test.js are unchanged.';

/** Job B, NOT_YET: the README the checklist asks for is not there. */
export const VERDICT_NOT_YET = `## Conclusion
NOT_YET

## Reason
wc.js and wc.test.js are present, but there is no README.md, so nothing shows what wc.js does or how to run it.

## Failed
- Open README.md → it says what wc.js does and shows its usage.`;

/** Job B, ACHIEVED. */
export const VERDICT_ACHIEVED = `## Conclusion
ACHIEVED

## Reason
wc.js, wc.test.js and README.md are all present, and README.md explains the tool and shows its usage.

## Failed
(none)`;

/** The bequest for whoever continues with Claude Code or Codex. */
export const BEQUEST_REPLY = `## What
wc.js, a dependency-free Node.js word counter (lines, words, characters of a file), with a generated-input test and a README. Built by flower's demo with a scripted model.

## Acceptance
All three checklist items in .flower/notes/goal.md passed in round 2; none is open.

## Generated
No file is generated from another: wc.js, wc.test.js and README.md are all hand-written.

## Dead ends
none

## Workbench
.flower/notes/ holds the brief, the goal, the Q&A log and the handoff of the work step; the long test log is under .flower/spill/. Read .flower/notes/brief.md first.`;
