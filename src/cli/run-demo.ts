/**
 * `flower demo` (decisions.md D16): the whole go path — clarify, goal, coordinator and worker, a NOT_YET
 * verdict, a handoff, a second round, an ACHIEVED verdict and the bequest — against the scripted model
 * bundled with the package ({@link demoScenario} served by flower's own fake Messages API on 127.0.0.1), in a
 * scratch folder, with no credentials and no cost. It runs through the same pieces `go` uses
 * (`startRunCommand`,
 * `buildStarter`, `commandRuntime`, `driveWorkflow`), so it is also the smoke test of every release.
 *
 * Nothing of the user's setup is used: the child environment is built here from a handful of display
 * variables (never the credentials or the `.env` chain), with a scratch HOME and the fake's address. A stand-in
 * human answers the clarifying question after a short pause, shown as if typed. The folder is kept and its path
 * printed at the start and the end: looking at what a run leaves behind is half of the demo.
 *
 * @module
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import type { CommandContext } from './command-context.js';
import type { GlobalOptions } from './program.js';
import { driveWorkflow } from './drive-workflow.js';
import { commandRuntime, startRunCommand } from './start-run-command.js';
import { signalName } from './stop-lines.js';
import { deriveConfig } from '../config/load-config.js';
import type { Env } from '../config/process-environment.js';
import { uiText, type Lang } from '../config/ui-text.js';
import type { HumanChannel } from '../human/human-channel.js';
import { useColor } from './cli-io.js';
import {
  createTerminalRenderer,
  type LineStyle,
  type TerminalRenderer,
} from '../render/terminal-renderer.js';
import { HandoffPolicy } from '../runtime/handoff-policy.js';
import { FakeAnthropicServer } from '../testing/fake-anthropic-server.js';
import { buildStarter } from '../workflow/starter-flow.js';
import { DEMO_REQUEST } from '../demo/demo-replies.js';
import { DEMO_WINDOW, demoScenario } from '../demo/demo-scenario.js';

/** How long each scripted reply takes, so a person can follow the run (about twenty replies). */
export const DEMO_PAUSE_MS = 700;

/** How long the stand-in human "thinks" before typing its answer. */
export const DEMO_ANSWER_DELAY_MS = 1_500;

/** Seconds the clarifying question waits: the stand-in answers long before; this only bounds a broken run. */
const QUESTION_TIMEOUT_S = 120;

/** The dummy key the child sends; the fake never checks it and nothing else ever sees it. */
const DEMO_API_KEY = 'sk-ant-api-demo-not-a-real-key';

/** Variables that only shape the display, taken from the user's shell; everything else is built here. */
const DISPLAY_VARIABLES = [
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'FLOWER_LANG',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
];

/** Where one demo run lives. */
export interface DemoFolder {
  /** `<tmp>/flower-demo-XXXXXX`, kept after the run. */
  root: string;
  /** The agent's workspace; the run directory is `<workspace>/runs`, the workbench `<workspace>/.flower`. */
  workspace: string;
  /** The scratch HOME of the agent subprocess. */
  home: string;
  /**
   * Its Claude Code configuration directory (flower points it at the run directory anyway, decisions.md D4).
   */
  claudeConfig: string;
  tmp: string;
}

/**
 * Runs the demo in a new `flower-demo-XXXXXX` folder under the system's temp directory and resolves to its exit
 * code: 0 when every step passed. Only `-v` of the global options counts: the demo makes its own workspace.
 */
export async function runDemo(globals: GlobalOptions, callerContext: CommandContext): Promise<number> {
  const context = transcriptContext(callerContext);
  const folder = makeDemoFolder(tmpdir());
  const server = await FakeAnthropicServer.start(demoScenario({ pauseMs: DEMO_PAUSE_MS }));
  const env = demoEnvironment(context.io.env, folder, server.url);
  const lang: Lang = deriveConfig({ env }).lang;
  // First of all, before even the -v dump: the model is scripted, and where the run's files go.
  const say = sayer(context, env);
  say([
    [uiText('demo.scripted', { url: server.url }, lang), 'bold'],
    [uiText('demo.shows', {}, lang), 'dim'],
    [uiText('demo.folder', { path: folder.root }, lang), 'cyan'],
    [uiText('demo.request', { ask: DEMO_REQUEST }, lang), 'plain'],
  ]);
  let code = 1;
  try {
    code = await runDemoIn(folder, env, globals, context);
  } finally {
    await server.close();
    say(endLines(folder, code, lang));
  }
  return code;
}

async function runDemoIn(
  folder: DemoFolder,
  env: Env,
  globals: GlobalOptions,
  context: CommandContext,
): Promise<number> {
  const demoGlobals: GlobalOptions = {
    workspace: folder.workspace,
    ...(globals.verbose === true ? { verbose: true } : {}),
  };
  // No standard input: the stand-in human answers, and nothing typed could steer a scripted model. "A terminal"
  // because somebody does answer: the driver's "nobody can answer questions" warning would be false here.
  const { stdin: _ignored, ...io } = context.io;
  const demoContext: CommandContext = {
    ...context,
    io: { ...io, env, cwd: folder.workspace, stdinIsTty: true },
  };
  const startup = await startRunCommand(deriveConfig({ env }), demoGlobals, demoContext);
  const { renderer, config } = startup;
  const lang = config.lang;

  const starter = buildStarter(DEMO_REQUEST, { workspace: folder.workspace, timeoutS: QUESTION_TIMEOUT_S });
  const runtime = await commandRuntime(config, demoGlobals, demoContext, {
    trim: true,
    handoff: new HandoffPolicy({ window: DEMO_WINDOW, env: config.env }),
    budgetUsd: null,
    workbench: starter.workbench,
  });
  const human = standInHuman(starter.channel, renderer, lang, DEMO_ANSWER_DELAY_MS);
  try {
    return await driveWorkflow({
      workflow: starter.workflow,
      runtime,
      startup,
      context: demoContext,
      started: (context.now ?? Date.now)(),
      // Stopped: there is nothing to continue (the scripted model is gone with this process), but the folder
      // with what the run left behind is kept, so say where.
      stopLines: (signal) => [
        uiText('quit.demo', { signal: signalName(signal) }, lang),
        uiText('demo.kept', { path: folder.root }, lang),
      ],
      ...(context.io.stdin === undefined ? {} : { quitKeys: context.io.stdin }),
    });
  } finally {
    human.stop();
  }
}

/**
 * Where the demo's transcript goes: standard error while standard output is a terminal (the screen, like
 * `once`'s log), standard output when it is redirected — `flower demo > demo.log` asked for the transcript
 * in the file, and a file is what a person reads it from later.
 */
export function transcriptContext(context: CommandContext): CommandContext {
  if (context.io.stdout.isTTY === true) return context;
  return { ...context, io: { ...context.io, stderr: context.io.stdout } };
}

/** Creates `<parent>/flower-demo-XXXXXX` with its workspace, scratch HOME, config and temp directories. */
export function makeDemoFolder(parent: string): DemoFolder {
  const root = mkdtempSync(join(parent, 'flower-demo-'));
  const folder: DemoFolder = {
    root,
    workspace: join(root, 'workspace'),
    home: join(root, 'home'),
    claudeConfig: join(root, 'claude-config'),
    tmp: join(root, 'tmp'),
  };
  for (const path of [folder.workspace, folder.home, folder.claudeConfig, folder.tmp]) mkdirSync(path);
  return folder;
}

/**
 * The demo's whole environment, built explicitly (decisions.md D4): display variables from the user's shell,
 * a PATH that finds this Node (the worker runs `node wc.test.js`), the scratch HOME and the fake's address
 * with a dummy key. Never the user's credentials, base URL, model or `.env` files: the demo must behave the
 * same on every machine, and must never spend anything.
 */
export function demoEnvironment(user: Env, folder: DemoFolder, url: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of DISPLAY_VARIABLES) {
    const value = user[key];
    if (value !== undefined && value !== '') env[key] = value;
  }
  const node = dirname(process.execPath);
  const path = user['PATH'] ?? '/usr/local/bin:/usr/bin:/bin';
  env['PATH'] = path.split(delimiter).includes(node) ? path : `${node}${delimiter}${path}`;
  Object.assign(env, {
    HOME: folder.home,
    TMPDIR: folder.tmp,
    CLAUDE_CONFIG_DIR: folder.claudeConfig,
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: DEMO_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // A probe would only ask the scripted model whether a dummy key works; an update check would leave the machine.
    FLOWER_NO_PROBE: '1',
    FLOWER_NO_UPDATE: '1',
  });
  return env;
}

/** The stand-in human: answers each question with its first option (or lets the model decide) after a pause. */
function standInHuman(
  channel: HumanChannel,
  renderer: TerminalRenderer,
  lang: Lang,
  delayMs: number,
): { stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const answerNext = async (): Promise<void> => {
    while (!stopped) {
      const ask = await channel.nextAsk();
      if (ask === null || stopped) return;
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, delayMs);
      });
      if (stopped) return;
      const answer = ask.options[0] ?? '';
      // As the live input line shows it: the hint once, then the short prompt with the typed answer.
      renderer.print(uiText('live.answer', {}, lang), 'dim');
      renderer.print(uiText('demo.typed', { prompt: uiText('live.mark', {}, lang), answer }, lang), 'dim');
      channel.answer(ask.id, answer);
    }
  };
  void answerNext();
  return {
    stop: () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}

/**
 * Prints lines outside the run's renderer: the opening comes before the run starts, and the closing after the
 * driver has closed its renderer.
 */
function sayer(context: CommandContext, env: Env): (lines: Array<[string, LineStyle]>) => void {
  return (lines) => {
    const renderer = createTerminalRenderer({
      output: context.io.stderr,
      color: useColor(context.io.stderr, env),
    });
    for (const [line, style] of lines) renderer.print(line, style);
    renderer.close();
  };
}

/** The closing words: the model was scripted, nothing was charged, and where the run's files are. */
function endLines(folder: DemoFolder, code: number, lang: Lang): Array<[string, LineStyle]> {
  const lines: Array<[string, LineStyle]> = [
    ['', 'plain'],
    [code === 0 ? uiText('demo.end', {}, lang) : uiText('demo.failed', { code }, lang), 'bold'],
    [uiText('demo.kept', { path: folder.root }, lang), 'cyan'],
    [uiText('demo.kept.notes', {}, lang), 'dim'],
    [uiText('demo.kept.runs', {}, lang), 'dim'],
    [uiText('demo.kept.work', {}, lang), 'dim'],
    [uiText('demo.remove', {}, lang), 'dim'],
  ];
  if (code === 0) lines.push([uiText('demo.next', {}, lang), 'plain']);
  return lines;
}
