// The doctor's file checks on real files in a scratch folder: stored pointers of the spill guard and of trim
// (made with their own pointer texts) whose files are there or gone, and a workbench INDEX.md that flower
// wrote, then made stale by a file removed and a file added behind its back.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { spillPointer } from '../guards/spill-guard.js';
import { fillTemplate, type Entry } from '../session/entry-content.js';
import { PLACEHOLDER_TEXT } from '../session/placeholder-text.js';
import { Workbench } from '../workbench/workbench.js';
import { checkSpillPointers, checkWorkbenchIndexes } from './doctor-file-checks.js';

let scratch: string | null = null;

afterEach(() => {
  if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
  scratch = null;
});

function folder(): string {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'flower-doctor-files-')));
  return scratch;
}

function result(id: string, content: string, cwd?: string): Entry {
  return {
    type: 'user',
    uuid: `uuid-${id}`,
    ...(cwd === undefined ? {} : { cwd }),
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] },
  };
}

describe('checkSpillPointers', () => {
  test('a pointer whose file is gone is named; one whose file is there is not', () => {
    const workspace = folder();
    mkdirSync(join(workspace, '.flower', 'spill'), { recursive: true });
    writeFileSync(join(workspace, '.flower', 'spill', 'aaaaaaaaaaaaaaaa.txt'), 'kept');
    const trimmed = (path: string) => fillTemplate(PLACEHOLDER_TEXT.trimmed, { n: 9000, path });
    const entries = [
      result('kept_guard', spillPointer(9000, '.flower/spill/aaaaaaaaaaaaaaaa.txt', 'kept'), workspace),
      result('lost_guard', spillPointer(9000, '.flower/spill/bbbbbbbbbbbbbbbb.txt', 'lost'), workspace),
      result('kept_trim', trimmed(join(workspace, '.flower', 'spill', 'aaaaaaaaaaaaaaaa.txt'))),
      result('lost_trim', trimmed(join(workspace, '.flower', 'spill', 'cccccccccccccccc.txt'))),
      result('plain', 'no pointer here. Read it twice.'),
    ];
    const findings = checkSpillPointers([{ sessionId: 's1', subpath: null, entries }], workspace);
    expect(
      findings.map((finding) => [finding.rule, finding.severity, finding.index, finding.detail]),
    ).toEqual([
      [
        'spill-file-missing',
        'warning',
        1,
        `the result of lost_guard points at ${join(workspace, '.flower/spill/bbbbbbbbbbbbbbbb.txt')}, which is not there`,
      ],
      [
        'spill-file-missing',
        'warning',
        3,
        `the result of lost_trim points at ${join(workspace, '.flower/spill/cccccccccccccccc.txt')}, which is not there`,
      ],
    ]);
    expect(findings[0]).toMatchObject({
      area: 'files',
      sessionId: 's1',
      subpath: null,
      uuid: 'uuid-lost_guard',
    });
  });
});

describe('checkWorkbenchIndexes', () => {
  test('an index flower wrote agrees with its files; a file removed or added behind its back is named', () => {
    const workspace = join(folder(), 'workspace');
    const runDir = join(workspace, 'runs');
    mkdirSync(runDir, { recursive: true });
    const workbench = new Workbench(workspace).ensure();
    writeFileSync(join(workbench.scripts, 'build.sh'), '# desc: builds\n');
    writeFileSync(join(workbench.notes, 'decision.md'), 'why\n');
    workbench.refresh();
    expect(checkWorkbenchIndexes(runDir, workspace)).toEqual([]);

    rmSync(join(workbench.scripts, 'build.sh'));
    writeFileSync(join(workbench.artifacts, 'report.txt'), 'new\n');
    const findings = checkWorkbenchIndexes(runDir, workspace);
    expect(findings.map((finding) => [finding.area, finding.rule, finding.severity, finding.detail])).toEqual(
      [
        [
          'files',
          'workbench-index-stale',
          'warning',
          `${workbench.index} lists scripts/build.sh, which is not there`,
        ],
        [
          'files',
          'workbench-index-stale',
          'warning',
          `${join(workbench.root, 'artifacts/report.txt')} is not in ${workbench.index}`,
        ],
      ],
    );
    // The -W workbench in the run directory is checked too.
    const inRun = new Workbench(workspace, { root: join(runDir, 'workbench') }).ensure();
    writeFileSync(join(inRun.scripts, 'x.sh'), 'x\n');
    expect(checkWorkbenchIndexes(runDir, workspace)).toHaveLength(3);
  });
});
