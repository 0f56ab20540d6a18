import { Help } from '@commander-js/extra-typings';
import { describe, expect, test } from 'vitest';
import { hasTranslation, translateHelp } from './help-text.js';
import { createProgram, type CommandHandlers } from './program.js';

const idle = (): Promise<number> => Promise.resolve(0);
// Every handler does nothing: only the help is looked at (and commands added later need no edit here).
const handlers = new Proxy({}, { get: () => idle }) as CommandHandlers;

/** What `flower <argv>` prints as help, in `lang`, with `envFile` as the setup path. */
async function helpOf(argv: string[], lang: 'en' | 'zh' = 'en', envFile = '~/.config/flower/.env') {
  let out = '';
  const program = createProgram(
    handlers,
    { writeOut: (text) => (out += text), writeErr: () => undefined },
    { lang, envFile },
  );
  // Help ends with commander's own "exit" (overridden into a throw): the text is what was written.
  await program.command.parseAsync(argv, { from: 'user' }).catch(() => undefined);
  return out;
}

describe('help', () => {
  test('every subcommand lists the global options too', async () => {
    for (const command of ['once', 'go', 'run', 'setup', 'demo', 'ask']) {
      const text = await helpOf([command, '--help']);
      expect(text, command).toContain('Global Options:');
      expect(text, command).toMatch(/-w, --workspace <dir> +agent working directory/);
      expect(text, command).toContain('-r, --run-dir <dir>');
    }
  });

  test('setup --help names the file setup really writes', async () => {
    const text = await helpOf(['setup', '--help'], 'en', '/srv/config/flower/.env');
    expect(text).toContain('/srv/config/flower/.env');
    expect(text).not.toContain('~/.config/flower/.env');
  });

  test('FLOWER_LANG=zh help is Chinese: titles, descriptions, defaults and the note after', async () => {
    const text = await helpOf(['--help'], 'zh', '/srv/cfg/flower/.env');
    expect(text).toMatch(/^用法: flower /);
    expect(text).toContain('选项:');
    expect(text).toContain('命令:');
    expect(text).toContain('代理的工作目录 (默认:".")');
    // Whitespace-normalised: how commander wraps it depends on the longest command name in the list.
    expect(text.replace(/\s+/g, ' ')).toContain(
      '配置凭证(API key / 网关 / 模型 / 窗口),写入 /srv/cfg/flower/.env',
    );
    expect(text).toContain('不写命令的需求会交给 `go`');
    expect(text).not.toContain('Options:');
    const once = await helpOf(['once', '--help'], 'zh');
    expect(once).toContain('全局选项:');
    expect(once).toContain('(可选:"default"');
  });

  test('every help text of every command has its Chinese form', () => {
    const { command: program } = createProgram(handlers, {
      writeOut: () => undefined,
      writeErr: () => undefined,
    });
    const helper = new Help();
    const missing: string[] = [];
    const check = (text: string): void => {
      if (text !== '' && !hasTranslation(text)) missing.push(text);
    };
    const commands = [program, ...helper.visibleCommands(program)];
    for (const command of commands) {
      check(command.description());
      for (const option of helper.visibleOptions(command)) check(option.description);
      for (const argument of helper.visibleArguments(command)) check(argument.description ?? '');
    }
    expect(missing).toEqual([]);
  });

  test('English help is left as written', () => {
    expect(translateHelp('show help', 'en')).toBe('show help');
    expect(translateHelp('show help', 'zh')).toBe('显示帮助');
  });
});
