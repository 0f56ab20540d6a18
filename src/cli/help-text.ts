/**
 * How `flower --help` and every subcommand's help are drawn: the global options listed under each
 * subcommand too (they are accepted on either side of it, so `flower once --help` must show `-w`), and, with
 * `FLOWER_LANG=zh`, the whole help in Chinese — titles, descriptions and the defaults commander appends.
 *
 * The English texts stay where the options are declared (`program.ts`); this file maps each to its Chinese
 * form, so adding an option never needs two edits in one place and a missing translation falls back to the
 * English text (a test lists every description without one). Kept free of the runtime: `--help` loads it.
 *
 * @module
 */
import { Help, type Argument, type Command, type Option } from '@commander-js/extra-typings';
import type { Lang } from '../config/ui-text.js';

/** What the help needs from outside the parser: the language and the real path `flower setup` writes. */
export interface HelpContext {
  lang: Lang;
  /** The user's `.env` file, for display (home as `~`). */
  envFile: string;
}

/** The help of an environment without `FLOWER_LANG` or `XDG_CONFIG_HOME`. */
export const DEFAULT_HELP: HelpContext = { lang: 'en', envFile: '~/.config/flower/.env' };

/** Every English help text of `program.ts`, with its Chinese form. */
const ZH_HELP: Readonly<Record<string, string>> = {
  'Portable long-horizon agent framework': '可移植的长程代理框架',
  'print the version': '显示版本号',
  'show help': '显示帮助',
  'show help for a command': '显示某个命令的帮助',
  'agent working directory': '代理的工作目录',
  'session store and run manifest (default: <workspace>/runs)': '会话存储和运行清单(默认:<workspace>/runs)',
  'show subagent text, tool results, task briefs and effective config':
    '显示子代理的文字、工具结果、任务简报和生效的配置',
  'enable the workbench (ignored if the workflow has its own)': '启用工作台(工作流自带工作台时忽略)',
  'on resume, swap old large tool results for file pointers': '恢复会话时,把旧的大工具结果换成文件指针',
  'where transcripts are kept: postgres://user:password@host/db (default: FLOWER_STORE, else sessions.db)':
    '会话记录存放处:postgres://user:password@host/db(默认:FLOWER_STORE,否则 sessions.db)',
  [[
    '',
    'A request without a command runs `go`: flower "build me an X" = flower go "build me an X".',
    'Global options may come before or after the command. Use `flower go <word>` or `flower -- <word>`',
    'when the request is a single word that is also a command name.',
  ].join('\n')]: [
    '',
    '不写命令的需求会交给 `go`:flower "给我做一个 X" = flower go "给我做一个 X"。',
    '全局选项写在命令前后都可以。需求只有一个词、又恰好是命令名时,用 `flower go <词>` 或 `flower -- <词>`。',
  ].join('\n'),
  'Clarify the request, set goals, dispatch workers, judge each round (default)':
    '澄清需求、设定目标、派出工作者、逐轮评判(默认命令)',
  'the request; asked for at a prompt when absent': '需求;不给时在提示符处询问',
  'question quota (-1 = unlimited, 0 = no questions)': '提问配额(-1 = 不限,0 = 不提问)',
  'total work rounds, each judged independently': '工作轮数上限,每轮独立评判',
  'no goal step and no verdict': '不设目标,也不评判',
  'the judge may run commands (stronger verdicts, may change the workspace)':
    '评审可以运行命令(评判更可靠,但可能改动工作区)',
  'seconds to wait for a human answer (0 = decide alone, "never" = wait forever)':
    '等人回答的秒数(0 = 自己决定,"never" = 一直等)',
  'give each worker its own git worktree (the workspace must be a git repository)':
    '给每个工作者单独的 git worktree(工作区必须是 git 仓库)',
  'context window in tokens; the handoff comes at window minus max(50000, 25%) (default: FLOWER_WINDOW, the learned value, or a guess from the model name)':
    '上下文窗口(token 数);交接发生在窗口减去 max(50000, 25%) 处(默认:FLOWER_WINDOW、学到的值,或按模型名估计)',
  "no handoff; fall back to the SDK's auto-compact": '不交接;改用 SDK 的自动压缩',
  'start from scratch (the previous brief, goal, Q&A log and lineage are archived)':
    '从头开始(之前的需求、目标、问答记录和会话谱系会归档)',
  'run only the clarify step': '只运行澄清步骤',
  'do not trim old large tool results on resume': '恢复会话时不裁剪旧的大工具结果',
  'dollar cap for the whole run': '整次运行的美元上限',
  'events as JSON lines on stdout (the events.jsonl format); the human view goes to stderr':
    '在标准输出上逐行输出 JSON 事件(events.jsonl 格式);给人看的输出改到标准错误',
  "serve the run's web page on 127.0.0.1 while it runs (docs/dashboard.md)":
    '运行期间在 127.0.0.1 上提供本次运行的网页(docs/dashboard.md)',
  "the web page's port with --dashboard (default: any free port)":
    '--dashboard 网页的端口(默认:任一空闲端口)',
  "Serve a run's live web page on 127.0.0.1: steps, verdicts, spend, context, questions":
    '在 127.0.0.1 上提供运行的实时网页:步骤、判定、花费、上下文、提问',
  'the port to listen on (default: any free port)': '监听的端口(默认:任一空闲端口)',
  "the run's dollar cap, to show spend against": '本次运行的美元上限,用来对照花费',
  'Run a workflow you wrote (target = module:export)': '运行你写的工作流(target = 模块:导出名)',
  'module:export, e.g. ./flows.js:main': '模块:导出名,例如 ./flows.js:main',
  'Run a single agent once': '运行单个代理一次',
  'what to do': '要做什么',
  "appended to Claude Code's own system prompt": '追加到 Claude Code 自己的系统提示词之后',
  'comma-separated tools the agent may use': '代理可用的工具,逗号分隔',
  'permission mode': '权限模式',
  'hard dollar cap': '硬性美元上限',
  'continue an existing session': '继续一个已有会话',
  'with --resume: fork into a new session instead of continuing':
    '与 --resume 一起用:分叉出新会话,而不是继续原会话',
  'Ask about the run in progress here, from another terminal; the run is not disturbed':
    '在另一个终端询问这里正在进行的运行;不会打扰它',
  'what you want to know, e.g. "what is it doing?"': '想知道什么,例如 "它在做什么?"',
  'Watch the whole go path run against a scripted model: no credentials, no cost, under a minute':
    '看完整的 go 流程在脚本化的模型上跑一遍:无需凭证、不花钱、一分钟内',
  'Where the run of a folder stands (steps, verdicts, cost, context, live or not); starts nothing':
    '某个目录的运行进展(步骤、评判、花费、上下文、是否在运行);不启动任何东西',
  'the workspace or its run directory (default: -w, else the current directory)':
    '工作区或其运行目录(默认:-w,否则当前目录)',
  'print it as one JSON object': '输出为一个 JSON 对象',
  "Run the goal's checks on the current tree, no model and no credentials; exit 0 only if all pass":
    '在当前文件树上运行目标的检查,不用模型、不用凭证;全部通过才以 0 退出',
  'the workspace (default: -w, else the current directory)': '工作区(默认:-w,否则当前目录)',
  'print the results as one JSON object': '把结果输出为一个 JSON 对象',
  'Figures of a run: cost, context, cache, tools, subagents, workbench; read-only, sends nothing':
    '一次运行的数字:花费、上下文、缓存、工具、子代理、工作台;只读,不发任何请求',
  'the run directory or its workspace (default: -r, else <workspace>/runs)':
    '运行目录或其工作区(默认:-r,否则 <workspace>/runs)',
  'print the figures as one JSON object (schema flower-analyze/1, docs/analyze.md)':
    '把数字输出为一个 JSON 对象(模式 flower-analyze/1,见 docs/analyze.md)',
  'also write a self-contained HTML report with charts to <file>': '另外把带图表的独立 HTML 报告写到 <file>',
  'Fault a scripted run at every message boundary, rerun it, check nothing was lost or repeated':
    '在每个消息边界给脚本化运行注入故障,重新运行,检查没有丢失也没有重复',
  'the scenario to fault (only "demo" today: the go path of `flower demo`)':
    '要注入故障的场景(目前只有 "demo":`flower demo` 的 go 流程)',
  'comma-separated faults: sigkill,cut,401,429,529,500,refuse,stall,disk-full (default: all)':
    '逗号分隔的故障:sigkill,cut,401,429,529,500,refuse,stall,disk-full(默认:全部)',
  'only these message boundaries, e.g. 1,5,9 (default: all)': '只在这些消息边界,例如 1,5,9(默认:全部)',
  'cases run at the same time': '同时运行的用例数',
  "keep each failed case's folder, with the requests the fake received":
    '保留每个失败用例的文件夹,以及假 API 收到的请求',
  'print the report as one JSON object': '把报告输出为一个 JSON 对象',
  'Pack the run of a folder (transcripts, manifest, lineage, notes, workbench) into one .tar.gz':
    '把某个目录的运行(对话记录、清单、谱系、笔记、工作台)打包成一个 .tar.gz',
  'the .tar.gz to write (must not exist)': '要写出的 .tar.gz(不能已存在)',
  "copy the run's transcripts into a PostgreSQL store instead": '改为把运行的会话记录复制进 PostgreSQL 存储',
  'Unpack a run that flower export wrote into -w DIR (default: here) and make it resumable there':
    '把 flower export 写出的运行解包到 -w 目录(默认:当前目录),并让它在那里可以续跑',
  'the .tar.gz flower export wrote': 'flower export 写出的 .tar.gz',
  "Check a run's transcripts, manifest, lineage, tool journal and processes; exit 1 on an error":
    '检查一次运行的会话记录、清单、谱系、工具日志和进程;有错误时以 1 退出',
  'print the findings as one JSON object': '把检查结果输出为一个 JSON 对象',
  'store a repaired copy of each broken session as a new session; the original stays':
    '把每个损坏会话的修复副本存为新会话;原会话保持不变',
  'Print a shell completion script, e.g. source <(flower completion bash)':
    '输出 shell 补全脚本,例如 source <(flower completion bash)',
  'the shell': 'shell 类型',
};

/** Help texts that carry a value (a path): matched by pattern, the value kept. */
const ZH_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /^Configure credentials \(API key \/ gateway \/ model \/ window\) in (.+)$/s,
    '配置凭证(API key / 网关 / 模型 / 窗口),写入 $1',
  ],
];

/** The headings commander draws, and the words of the extras it appends to a description. */
const ZH_TITLES: Readonly<Record<string, string>> = {
  'Usage:': '用法:',
  'Arguments:': '参数:',
  'Options:': '选项:',
  'Global Options:': '全局选项:',
  'Commands:': '命令:',
};
const ZH_EXTRAS: ReadonlyArray<readonly [string, string]> = [
  ['(default: ', '(默认:'],
  [', default: ', ',默认:'],
  ['(choices: ', '(可选:'],
];

/** `text` in `lang`; for Chinese the mapped form, the English text when there is none. */
export function translateHelp(text: string, lang: Lang): string {
  if (lang === 'en') return text;
  const mapped = ZH_HELP[text];
  if (mapped !== undefined) return mapped;
  for (const [pattern, replacement] of ZH_PATTERNS)
    if (pattern.test(text)) return text.replace(pattern, replacement);
  return text;
}

/** True when `text` has a Chinese form (for the test that every help text is translated). */
export function hasTranslation(text: string): boolean {
  return translateHelp(text, 'zh') !== text;
}

/** A description commander composed (`text (default: x)`): the text translated, then the extras' words. */
function translateComposed(composed: string, own: string, lang: Lang): string {
  if (lang === 'en') return composed;
  let result = composed.startsWith(own) ? translateHelp(own, lang) + composed.slice(own.length) : composed;
  for (const [english, chinese] of ZH_EXTRAS) result = result.split(english).join(chinese);
  return result;
}

/**
 * The help configuration of the program: global options shown under every subcommand, and the texts in
 * `lang`. Set on the program before its subcommands are added, which copy it when they are created.
 */
export function helpConfiguration(lang: Lang): Partial<Help> {
  const base = Help.prototype;
  return {
    showGlobalOptions: true,
    styleTitle: (title: string) => (lang === 'zh' ? (ZH_TITLES[title] ?? title) : title),
    commandDescription(this: Help, command: Command) {
      return translateHelp(base.commandDescription.call(this, command), lang);
    },
    subcommandDescription(this: Help, command: Command) {
      return translateHelp(base.subcommandDescription.call(this, command), lang);
    },
    optionDescription(this: Help, option: Option) {
      return translateComposed(base.optionDescription.call(this, option), option.description, lang);
    },
    argumentDescription(this: Help, argument: Argument) {
      return translateComposed(base.argumentDescription.call(this, argument), argument.description, lang);
    },
  };
}
