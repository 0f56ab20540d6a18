import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { afterAll, describe, expect, test } from 'vitest';
import { createProgram, type CommandHandlers } from './program.js';
import { completionScript } from './shell-completion.js';

const idle = (): Promise<number> => Promise.resolve(0);
const handlers: CommandHandlers = {
  go: idle,
  run: idle,
  once: idle,
  setup: idle,
  ask: idle,
  demo: idle,
  status: idle,
  verify: idle,
  analyze: idle,
  chaos: idle,
  dashboard: idle,
  exportRun: idle,
  importRun: idle,
  doctor: idle,
  completion: idle,
};

function program(): CommandUnknownOpts {
  return createProgram(handlers, { writeOut: () => undefined, writeErr: () => undefined }).command;
}

const folder = mkdtempSync(join(tmpdir(), 'flower-completion-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** What bash completes for `words` (the last one is being typed), with the generated script loaded. */
function bashCompletes(script: string, words: string[]): string[] {
  const file = join(folder, 'flower.bash');
  writeFileSync(file, script);
  const array = words.map((word) => `'${word}'`).join(' ');
  const output = execFileSync(
    'bash',
    [
      '-c',
      `source "$1"; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _flower_completion; printf '%s\\n' "\${COMPREPLY[@]}"`,
      'bash',
      file,
    ],
    { encoding: 'utf8', cwd: folder },
  );
  return output.split('\n').filter((line) => line !== '');
}

describe('completionScript', () => {
  test("bash: commands, a command's options, choices and the argument choices come from the definitions", () => {
    const script = completionScript('bash', program());
    expect(bashCompletes(script, ['flower', 'st'])).toEqual(['status']);
    expect(bashCompletes(script, ['flower', 'once', '-p', ''])).toEqual([
      'default',
      'acceptEdits',
      'plan',
      'bypassPermissions',
    ]);
    expect(bashCompletes(script, ['flower', 'once', '--js'])).toEqual(['--json']);
    // A global with a value before the command is skipped, its value included.
    expect(bashCompletes(script, ['flower', '-w', 'app', 'go', '--ro'])).toEqual(['--rounds']);
    expect(bashCompletes(script, ['flower', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(bashCompletes(script, ['flower', 'help', 'sta'])).toEqual(['status']);
    const registered = execFileSync(
      'bash',
      ['-c', 'source "$1"; complete -p flower', 'bash', join(folder, 'flower.bash')],
      {
        encoding: 'utf8',
      },
    );
    expect(registered.trim()).toBe('complete -o default -F _flower_completion flower');
  });

  test('an option declared on the program completes without touching the generator', () => {
    const extended = program();
    extended.commands.find((command) => command.name() === 'once')?.option('--brand-new', 'just added');
    expect(bashCompletes(completionScript('bash', extended), ['flower', 'once', '--brand'])).toEqual([
      '--brand-new',
    ]);
  });

  test('zsh: a #compdef function with every command described and the choices of -p', () => {
    const script = completionScript('zsh', program());
    expect(script.startsWith('#compdef flower\n')).toBe(true);
    for (const name of ['go', 'run', 'once', 'setup', 'ask', 'demo', 'status', 'completion', 'help'])
      expect(script).toMatch(new RegExp(`^    '${name}:`, 'm'));
    // Colons in descriptions are escaped, or zsh would read them as the end of the name.
    expect(script).toContain("'run:Run a workflow you wrote (target = module\\:export)'");
    expect(script).toContain("'-p[permission mode]:value:(default acceptEdits plan bypassPermissions)'");
    expect(script).toContain("'--workspace[agent working directory]:directory:_files -/'");
    expect(script).toContain('  compdef _flower flower');
  });

  test('fish: one complete line per command and option, conditions per subcommand', () => {
    const script = completionScript('fish', program());
    expect(script).toContain(
      "complete -c flower -n __fish_use_subcommand -f -a status -d 'Where the run of a folder stands (steps, verdicts, cost, context, live or not); starts nothing'",
    );
    expect(script).toContain(
      "complete -c flower -n '__fish_seen_subcommand_from once' -s p -l permission-mode -r -f -a 'default acceptEdits plan bypassPermissions' -d 'permission mode'",
    );
    expect(script).toContain(
      "complete -c flower -s w -l workspace -r -a '(__fish_complete_directories)' -d 'agent working directory'",
    );
    expect(script).toContain(
      "complete -c flower -n '__fish_seen_subcommand_from completion' -f -a 'bash zsh fish'",
    );
  });
});
