import { describe, expect, test } from 'vitest';
import { rewriteArgv, rewriteSetsOf } from './default-subcommand.js';
import { createProgram, type CommandHandlers } from './program.js';

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
const program = createProgram(handlers, { writeOut: () => undefined, writeErr: () => undefined });
const sets = rewriteSetsOf(program.command);

function rewrite(...argv: string[]): string[] {
  return rewriteArgv(argv, sets).argv;
}

describe('rewriteSetsOf', () => {
  test('derives the flag sets from the declared top-level options', () => {
    expect([...sets.valueOptions].sort()).toEqual(['--run-dir', '--store', '--workspace', '-r', '-w']);
    expect([...sets.bareFlags].sort()).toEqual([
      '--help',
      '--trim',
      '--verbose',
      '--version',
      '--workbench',
      '-T',
      '-W',
      '-h',
      '-v',
    ]);
    expect([...sets.helpFlags].sort()).toEqual(['--help', '-h']);
  });

  test('derives the subcommands from the registered commands, setup, ask and help included', () => {
    expect([...sets.subcommands].sort()).toEqual([
      'analyze',
      'ask',
      'chaos',
      'completion',
      'dashboard',
      'demo',
      'doctor',
      'export',
      'go',
      'help',
      'import',
      'once',
      'run',
      'setup',
      'status',
      'verify',
    ]);
  });
});

// One test per row of docs/cli.md's table.
describe('rewriteArgv', () => {
  test('flower → go (interactive prompt)', () => {
    expect(rewrite()).toEqual(['go']);
  });

  test('flower -v → -v go', () => {
    expect(rewrite('-v')).toEqual(['-v', 'go']);
  });

  test('flower "X" → go "X"', () => {
    expect(rewrite('build me an X')).toEqual(['go', 'build me an X']);
  });

  test('flower -w ../p "X" and --workspace=../p "X" keep the globals and insert go before "X"', () => {
    expect(rewrite('-w', '../p', 'X')).toEqual(['-w', '../p', 'go', 'X']);
    expect(rewrite('--workspace=../p', 'X')).toEqual(['--workspace=../p', 'go', 'X']);
  });

  test('flower "X" --timeout 0 and flower --timeout 0 "X" both become go …', () => {
    expect(rewrite('X', '--timeout', '0')).toEqual(['go', 'X', '--timeout', '0']);
    expect(rewrite('--timeout', '0', 'X')).toEqual(['go', '--timeout', '0', 'X']);
  });

  test('flower --new → go --new', () => {
    expect(rewrite('--new')).toEqual(['go', '--new']);
  });

  test('flower once "hi", flower run flows.js:main and flower setup stay unchanged', () => {
    expect(rewrite('once', 'hi')).toEqual(['once', 'hi']);
    expect(rewrite('run', 'flows.js:main')).toEqual(['run', 'flows.js:main']);
    expect(rewrite('setup')).toEqual(['setup']);
  });

  test('flower ask "what is it doing?" stays unchanged; a request that merely starts with ask goes to go', () => {
    expect(rewrite('ask', 'what is it doing?')).toEqual(['ask', 'what is it doing?']);
    expect(rewrite('demo')).toEqual(['demo']);
    expect(rewrite('-w', 'ws', 'ask', 'why?')).toEqual(['-w', 'ws', 'ask', 'why?']);
    expect(rewrite('ask me before deleting anything')).toEqual(['go', 'ask me before deleting anything']);
  });

  test('flower run stays unchanged (a usage error later, not a request)', () => {
    expect(rewrite('run')).toEqual(['run']);
  });

  test('flower go run keeps run as the request text', () => {
    expect(rewrite('go', 'run')).toEqual(['go', 'run']);
  });

  test('flower --help stays unchanged (top-level help)', () => {
    expect(rewrite('--help')).toEqual(['--help']);
  });

  test('flower -- run makes run the request', () => {
    expect(rewrite('--', 'run')).toEqual(['go', '--', 'run']);
  });

  test('a help flag before any request shows the top-level help, after a request the go help', () => {
    expect(rewrite('-h', 'X')).toEqual(['-h', 'X']);
    expect(rewrite('X', '-h')).toEqual(['go', 'X', '-h']);
  });

  test('globals before a subcommand, and a value option without its value, are left alone', () => {
    expect(rewrite('-v', '-w', 'ws', 'once', 'hi')).toEqual(['-v', '-w', 'ws', 'once', 'hi']);
    expect(rewrite('-w')).toEqual(['-w']);
  });

  test('reports where go was inserted', () => {
    expect(rewriteArgv(['-v', 'X'], sets).inserted).toBe(1);
    expect(rewriteArgv(['once', 'X'], sets).inserted).toBe(-1);
  });
});

// The rewrite and the parser together: which command runs, with what. These hold whatever implements the
// default (a commander `isDefault` would send `flower -- status` to `status`, for one).
describe('the default subcommand, parsed', () => {
  async function ran(...argv: string[]): Promise<string[]> {
    const calls: string[] = [];
    const helpText: string[] = [];
    const recorded: CommandHandlers = {
      ...handlers,
      go: (ask, options, globals) => {
        calls.push(`go ${JSON.stringify(ask)} rounds=${options.rounds} verbose=${globals.verbose === true}`);
        return Promise.resolve(0);
      },
      status: (dir) => {
        calls.push(`status ${JSON.stringify(dir)}`);
        return Promise.resolve(0);
      },
    };
    const parsing = createProgram(recorded, {
      writeOut: (text) => helpText.push(text),
      writeErr: () => undefined,
    });
    try {
      await parsing.command.parseAsync(rewriteArgv(argv, rewriteSetsOf(parsing.command)).argv, {
        from: 'user',
      });
    } catch {
      // --help: commander throws after writing the help.
    }
    return helpText.length > 0 ? [`help ${helpText.join('').split('\n')[0]}`] : calls;
  }

  test('flower alone runs go with no request (it is asked for at a prompt)', async () => {
    expect(await ran()).toEqual(['go undefined rounds=3 verbose=false']);
  });

  test('a request, with globals and go options on either side, runs go', async () => {
    expect(await ran('-v', 'build X', '--rounds', '2')).toEqual(['go "build X" rounds=2 verbose=true']);
  });

  test('a command name runs that command; after `go` or `--` it is the request', async () => {
    expect(await ran('status')).toEqual(['status undefined']);
    expect(await ran('go', 'status')).toEqual(['go "status" rounds=3 verbose=false']);
    expect(await ran('--', 'status')).toEqual(['go "status" rounds=3 verbose=false']);
  });

  test('flower --help is the top-level help, not go’s', async () => {
    expect(await ran('--help')).toEqual(['help Usage: flower [global options] [command] [request]']);
  });
});
