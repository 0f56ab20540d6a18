/**
 * The UI catalog: every user-visible line flower prints, by key (decisions.md D1 and D28). English is the
 * default;
 * `FLOWER_LANG=zh` selects the Chinese catalog in `ui-text-zh.ts`. `{name}` marks a placeholder; option
 * names, variable names, `/new` and icons are never translated.
 *
 * @module
 */
import type { Env } from './process-environment.js';
import { ZH_CATALOG } from './ui-text-zh.js';

/** A UI language. */
export type Lang = 'en' | 'zh';

/** The English catalog; its keys define {@link CatalogKey}. */
export const EN_CATALOG = {
  // Startup prompt and request errors (docs/cli.md).
  'prompt.fresh': 'What should I do? One sentence is enough; Enter to start (Ctrl-C to quit)',
  'prompt.wake':
    'Continue from last time? Enter = keep going; or say something new; /new = start over (Ctrl-C to quit)',
  cancelled: 'Cancelled',
  'err.emptyAsk': 'The request is empty. Run `flower` and type at the prompt, or: flower "build me an X".',
  'err.noAsk': "A request is required, e.g. flower 'build me an X'",
  'err.isolate':
    '--isolate requires {path} to be a git repository (each subagent gets its own worktree). Run git init first, or drop --isolate.',
  'err.abortedAt': "Stopped: the '{step}' step did not finish",
  'err.onceStopped': 'Stopped: the agent did not finish',
  'err.run.form': 'Expected module:export, e.g. ./flows.js:main',
  'err.run.notFound':
    'Cannot find {p} (current directory {cwd}). A file path must exist; to import by module name, omit the file extension.',
  'err.run.import': "Failed to import '{m}': {e}",
  'err.run.noAttr': "'{m}' has no export '{a}'.{near} Its exports: {names}.",
  'err.run.noAttrNear': " Did you mean '{name}'?",
  'err.run.noExports': '(none)',
  'err.run.notWorkflow': "'{m}:{a}' is not a Workflow, nor a function that returns one",
  'err.run.tsLoader':
    'Node {v} cannot import the TypeScript file {p} by itself. Compile it to .js, or run flower under a loader: node --import tsx {bin} run {target}',
  'err.envFile': 'Cannot read the .env file {path}: {reason}',
  'err.noSuchSession':
    'No session {id} is stored for this workspace in {path}. Check the id (flower once prints it when it ends), or give the -w and -r of the run it came from.',
  'dir.workspace': 'The workspace (-w)',
  'dir.runDir': 'The run directory (-r)',
  'err.dirIsFile':
    '{what} {path} cannot be a directory: it, or a folder above it, is a file ({reason}). Give a directory path; it is created when missing.',
  'err.dirUnwritable':
    '{what} {path} cannot be written ({reason}). Make it writable for this user, or give another directory.',
  'err.envNul':
    'The .env file {path} holds a NUL byte on line {line}; no environment variable can carry one. Remove it (the file may have been saved in UTF-16 or as binary) and run again.',
  'err.notYet':
    '`flower {command}` is not available yet in this version; `flower once "..."` runs a single agent.',
  'err.didYouMean':
    "'{word}' looks like a mistyped command: did you mean `flower {command}`? To send it as a request: flower go {word}",
  'err.forkNeedsResume': '--fork needs --resume <session_id>: only an existing session can be forked.',
  'err.unexpected': 'Unexpected error: {e} (set FLOWER_DEBUG=1 to see the stack)',
  'warn.noTty':
    '! stdin is not a terminal, so nobody can answer questions. Add --timeout 0 to let it decide on its own.',
  'warn.noTtyRun':
    "! stdin is not a terminal, so nobody can answer this workflow's questions: each waits out its channel's timeout. Give the channel timeoutS: 0 (new HumanChannel({ timeoutS: 0 })) to let the agent decide on its own.",

  // The live input line and interrupts (docs/human-channel.md).
  'live.answer': 'Your answer (Enter = skip, let it decide):',
  'live.idle':
    '(type = add a requirement, delivered at the next checkpoint; start with ? = side question, the run is not disturbed)',
  'live.interrupt': 'Interrupted — anything to say? (Enter = nothing, keep going)',
  'live.mark': '› ',
  'live.received': '+ Received (it will see this at its next inbox check; {note})',
  'live.amended': 'appended to the brief',
  'live.noBrief': 'no brief to persist it — it may not survive the next step',
  'live.noInbox':
    '! Not delivered: nothing in this run reads messages. Press Ctrl-C to interrupt it and say it then.',
  'int.done': '! Interrupted this round. Running subagents lose unfinished work.',
  'int.pending': '({n} {n:question|questions} still pending; the interrupt does not affect them)',
  'int.resumeSaid': 'Interrupted; resuming with your message',
  'int.resume': 'Interrupted; continuing',

  // Side questions (docs/human-channel.md).
  'aside.head': '# Aside · the oracle answers',
  'aside.none': '(no answer)',
  'aside.cost': '(${c}, the running job was not disturbed)',
  'aside.fail': '# Aside failed: {t}: {m}',
  'aside.unwired': '(side questions are not available here)',
  'aside.waiting': '(waiting for {n} side {n:question|questions} to finish…)',
  'aside.asking': '(asking…)',
  'aside.noRun':
    'No run has been recorded here ({path} does not exist). Start one with flower "…" or flower run <module>:<export>, then ask from another terminal.',
  'aside.noServerRun':
    'No run is recorded in {path}. Start one there with flower --store … "…", or check the location and the run name (?run=, FLOWER_RUN).',
  'dashboard.noRun':
    'No run has been recorded here ({path} does not exist). Start one with flower "…", then open its dashboard.',
  'dashboard.head': 'Dashboard of {path}',
  'dashboard.read': '  to look:            {url}',
  'dashboard.write': '  to answer and ask:  {url}',
  'dashboard.stop': 'Ctrl-C stops the dashboard; the run goes on.',
  'dashboard.failed': 'The dashboard could not start: {e}',
  'aside.noQuestion': 'The question is empty. Ask one, e.g. flower ask "what is it doing?"',
  'aside.ended': '(no run is in progress here; answering from the last events of the run that ended)',

  // Run output (docs/cli.md).
  'st.context': 'context',
  'st.total': 'total',
  // The live status line at the bottom of a terminal while a step runs.
  'act.call': 'model call {t}',
  'act.tokens': '{n} tokens',
  'act.tool': 'running {name} {t}',
  'act.worker': 'worker {name} {t}',
  'ev.dispatch': 'dispatch',
  // Who speaks: the speaker line above a role's output (the judge's round in its own words).
  'who.judge': 'judge',
  'who.coordinator': 'coordinator',
  'who.clarifier': 'clarifier',
  'who.goal': 'goal writer',
  'who.bequest': 'bequest writer',
  'who.oracle': 'oracle',
  'who.round': '{who} · round {n}',
  'who.line': '[{who}]',
  'who.verdict': '{who}: {text}',
  'res.done': 'done',
  'res.failed': 'failed',
  'res.turns': 'turns',
  'res.turn': 'turn',
  'res.elapsed': 'elapsed',
  'step.resumed': 'resumed · wake #{n}',
  'step.sessionMissing':
    "Step '{step}': its session {session} from the last run is gone from the store; starting a new session",
  'step.noResumeSource':
    "Step '{step}' needs resumeFrom='{from}', but that step produced no session. Run '{from}' before it, or drop resumeFrom.",
  'step.busy': 'This workflow is already running; wait for run() to finish before starting it again.',
  'ask.left': '{n} {n:question|questions} left',
  'ask.timeout': 'No answer — it will decide and record the assumption under "Unknowns and assumptions"',
  'ask.over': 'Question quota used up',
  'ask.skipped': 'Skipped',
  'ask.mail.delivered': 'delivered',
  'ho.near': 'context {ctx}K of {win}K — a handoff to a new session comes at {at}K',
  'ho.edited': 'The handoff document {path} was edited by a human; the resumed session is told to re-read it',
  'ho.writing': 'context {ctx}/{win}K — the session is writing its handoff document…',
  'verdict.roundsUsed':
    'The judge still says the goal is not achieved after {n} {n:round|rounds}: {reason} Run the same command again to go on where it stopped, or allow more rounds with --rounds.',
  'warn.ownedEnv': 'The step sets {keys} in its env, which flower owns; ignored',
  'warn.resumeArgs': 'fork and resumeAt need a session to resume; they were ignored',
  'warn.noSandbox':
    "The agent's shell runs unsandboxed ({reason}): its commands can see the API key, and an isolated worker's commands can write outside its worktree",
  'ho.head': 'Handoff: what the new session is told',
  'ho.degraded':
    'Handoff could not be written; using a degraded one — the successor will inspect the workspace itself',
  'ho.doing': 'Doing',
  'ho.decided': 'Decided',
  'ho.deadends': 'Dead ends',
  'ho.next': 'Next',
  'ho.path': 'Handoff written to {path}',
  'ho.restart': 'New session takes over (context was {ctx})',
  'ho.stop.degraded':
    'Stopped: {n} handoffs in a row could not be written. With a context window of {win} tokens the handoff starts at {at}, leaving {room} for writing it, and that was not enough. If the real window is smaller, pass it with --window (or FLOWER_WINDOW); otherwise give the handoff more headroom.',
  'ho.stop.runaway':
    'Stopped after {n} handoffs in one step (window {win} tokens, handoff at {at}): each new session fills up again at once, so handoffs would never end. The threshold is probably below what a fresh session needs to start; check that --window, FLOWER_WINDOW or the value learned in .windows is the real window, or use a smaller headroom.',
  'wake.at': 'Resuming in {path}',
  'wake.confirmed': 'brief confirmed',
  'wake.goals': '{n} goal checks',
  'wake.goal': '{n} goal check',
  'wake.context': 'work context {x}',
  'wake.count': 'wake #{n}',
  'wake.stale':
    'The last verdict, ACHIEVED, is stale: a later `flower verify` failed ({items}). This run works on it again.',
  'wake.amended':
    'Added to the brief: {text} — the goal will be set again from the brief before work goes on',
  'wake.amendedNoGoal': 'Added to the brief: {text}',
  'lineage.moved':
    'The workspace moved from {from} to {to}; continuing its sessions (re-keyed from {fromKey} to {toKey})',
  'lineage.reset':
    '{path} belongs to another workspace ({other}); starting fresh sessions here (the old file is set aside, not deleted)',
  'lineage.quarantined':
    '{path} could not be read ({reason}); it was kept as {kept} and this run starts fresh sessions',
  'lineage.unreadable': '{path} could not be read ({reason}); a new run here would start fresh sessions',
  // The go path's goal guard and clarify step (docs/go-path.md, decisions.md D104, D112, D116).
  'clarify.maxTurns':
    'The clarifier may take at most {n} turns while questions are unlimited; each question is a turn, so it may stop asking early. Raise maxTurns or set a question quota.',
  'goal.unverifiable':
    '{n} of {total} goal {total:check|checks} cannot be verified here and will never pass: {items}. The goal is still editable at {path}',
  'goal.unverifiableAsk':
    '{n} goal {n:check|checks} cannot be verified here and will never pass: {items}. What should happen to {n:it|them}?',
  'goal.keep': 'Keep them (the judge will call the goal unreachable and ask you again)',
  'goal.drop': 'Drop them from the checklist',
  'goal.accept': 'Accept them: I will check them myself after the run',
  'verdict.unreachableAsk': 'The judge found the goal unreachable: {reason} — what now?',
  'verdict.accept': 'Accept and move on',
  'verdict.amend': 'Amend the goal',
  'verdict.misjudged': 'You judged wrong, keep going',
  'verdict.newGoal': 'The new goal, in one sentence:',
  'verdict.aborted':
    'The judge found the goal unreachable ({reason}) and nobody decided what to do, so the remaining rounds were not spent. Check the goal in {goal} and the run in {manifest}, then run again.',
  close: 'Total cost ${c} · manifest {path}',
  'close.server': 'Total cost ${c} · records in {path}',
  'close.incomplete': 'record incomplete: {n} {n:failure|failures} above',
  'warn.recordFailed': '! Not recorded: {e}',
  'err.recordIncomplete':
    "The run's record is incomplete ({n} {n:failure|failures} above), so {path} may be stale. Fix the cause (disk space, permissions, a file in the way) before relying on it.",
  'fail.cred': '! Looks like a credential problem: {e}',
  'fail.reconfigured': 'Configured. Run the same command again — this directory continues where it left off.',
  'fail.credHint': 'Run `flower setup` to fix the credentials, then run the same command again.',
  'fail.overloaded': '! The API is overloaded (HTTP 529); try again in a few minutes: {e}',
  'fail.rateLimited':
    '! The API is rate limiting this key (HTTP 429); wait a little and run the command again: {e}',
  'fail.other': '! {e}',
  'fail.spawn':
    '! Claude Code could not be started ({e}); retrying would not help. Check the environment it inherits (a .env value that is very long or holds a NUL byte) and run again.',
  'once.resume': 'Session {id}; continue it with: flower once --resume {id} "..."',
  'quit.continue': 'Stopped by {signal}; continue with: {command}',
  'quit.rerun': 'Stopped by {signal}; run the same command again to continue',
  'quit.demo': 'Stopped by {signal}',
  'quit.interrupting': 'Stopping the agent at its next message; press Ctrl-C again to stop the run',
  'quit.confirm': 'Press Ctrl-C again to stop the run (it can be continued later)',
  'err.sessionInUse':
    'Session {id} is being continued by another flower (pid {pid}, since {since}); wait for it to end or stop it, then run again.',
  'attach.live':
    'This run is live in another flower (pid {pid} on {host}, since {since}): watching only, no step runs here.',
  'attach.stands': 'Where it stands:',
  'attach.none': 'no step has finished yet',
  'attach.running': 'running',
  'attach.ok': 'ok',
  'attach.failed': 'failed',
  'attach.ask': 'Ask it something with: flower ask "..."',
  'status.none': 'No flower run in {path} (nothing in {runDir}); start one with: flower "..."',
  'status.head': 'Run in {path} · {runDir}',
  'status.live': 'live: pid {pid}{host}, since {since}',
  'status.liveLog': 'live: pid {pid} is writing its event log',
  'status.idle': 'not running · last activity {at}',
  'status.parked':
    'parked: usage limit of step {step} · resumes at {at} ({left} left); run flower here again to wait it out',
  'status.parkedOver': 'parked: usage limit of step {step} reset at {at}; run flower here again to resume',
  'status.idleNever': 'not running',
  'status.brief': 'brief confirmed',
  'status.noBrief': 'no confirmed brief',
  'status.wakes': 'wakes {n}',
  'status.steps': 'Steps:',
  'status.turns': '{n} turns',
  'status.turn': '1 turn',
  'status.verdict': 'verdict round {n}: {state}',
  'status.total': 'total ${c} · context {x}',
  'status.totalNoContext': 'total ${c}',
  'status.spenders': 'Top spenders (${c} priced from the session store):',
  'status.byRole': 'by role: {list}',
  'status.mainThreads': 'main threads: ${c}',
  'status.moreSubagents': 'more subagents: {n}, ${c}',

  // The load report after a resume (session trimming; `trimReport` joins the non-zero parts).
  'trim.report.nothing': 'Nothing trimmed',
  'trim.report.cleared':
    'archived {cleared} old tool results (kept the {kept} most recent large {kept:one|ones}), saving ~{tokens} tokens',
  'trim.report.clearedOne':
    'archived 1 old tool result (kept the {kept} most recent large {kept:one|ones}), saving ~{tokens} tokens',
  'trim.report.expired': 'marked {expired} stale command results as expired',
  'trim.report.expiredOne': 'marked 1 stale command result as expired',
  'trim.report.pruned': 'removed {pruned} API-error entries',
  'trim.report.prunedOne': 'removed 1 API-error entry',
  'trim.report.denials': 'removed {denials} old denied calls',
  'trim.report.denialsOne': 'removed 1 old denied call',
  'trim.report.healed': 'answered {healed} interrupted tool calls',
  'trim.report.healedOne': 'answered 1 interrupted tool call',
  'trim.report.errors': '{errors} spill errors',
  'trim.report.errorsOne': '1 spill error',

  // Network waits and durations (docs/resilience.md, decisions.md D28).
  'net.unreachable': '{host}:{port} is unreachable; waiting up to {wait} for the network to come back',
  'net.back': '{host}:{port} is reachable again after {waited}; continuing',
  'net.gaveUp': 'network not back within {wait}',
  'net.neverReached':
    '{host}:{port} was never reached from this process: check ANTHROPIC_BASE_URL and that the API or gateway is running; checking again for {wait}, then stopping (FLOWER_UNREACHABLE_WAIT)',
  'net.neverGaveUp': 'the API endpoint was never reachable; stopped after {wait}',
  'net.waiting': 'waiting for {host}:{port} · {waited} so far · next check in {next} · Ctrl-C to stop',

  // The step's attempt loop (docs/runtime.md; decisions.md D6, D25, D30).
  'rt.retry': 'Attempt {n} failed ({kind}): {why} · attempt {next} of {max} in {delay}, same session',
  'rt.stall':
    'No message from the agent for {idle} while nothing was running; the stream looks stuck, so it is stopped and the same session resumed',
  'rt.budget.step': 'Step budget ${cap} used up (${spent} spent); stopped here, the session stays resumable',
  'rt.promptTooLong':
    'The first message is too long for the model ({e}); nothing was handed over or retried. Shorten the input, or put the long part in a file and point to it.',
  'rt.budget.run':
    'Run budget ${cap} used up (${spent} spent in this run); stopped here. Run again with a larger -b to continue',
  'rt.parked': 'usage limit · resumes at {at} · {left} left · Ctrl-C to stop',
  'rt.parkedResume': 'usage limit reset at {at}; resuming the same session',
  'price.family':
    'No price known for model {model}; priced as the {family} family ({like}) — set FLOWER_PRICES to give its own',
  'price.unknown':
    'No price known for model {model}; priced at $4 in, $20 out per million tokens, as Claude Code prices it — set FLOWER_PRICES to give its own',
  'rt.budget.gateRun':
    'The run budget of ${cap} is nearly spent (${spent} so far; the next turn would make it about ${projected}).',
  'rt.budget.gateStep':
    'The step budget of ${cap} is nearly spent (${spent} so far; the next turn would make it about ${projected}).',
  'budget.spent':
    'The run stopped at its budget of ${cap} (${spent} spent) and is not continued without a larger one: run again with -b {next} (any amount above {cap}), and it resumes where it stopped',
  'rt.modelMismatch':
    'Asked for model {want} but the API served {served}; its context window may differ from what flower assumes',
  'time.seconds': '{n} s',
  'time.minutes': '{n} min',

  // Credentials (docs/configuration.md).
  'cred.missing.1':
    'Missing credentials: set ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or CLAUDE_CODE_OAUTH_TOKEN.',
  'cred.missing.2':
    'Easiest: run `flower setup` once to store the token in {path} (set once, works everywhere).',
  'cred.missing.3': 'Or create a .env in the current directory, or export the variable in your shell.',
  'cred.missing.4':
    "(Also tried borrowing Claude Code's token from the env block of ~/.claude/settings.json and settings.local.json — nothing usable.)",
  mask: '*** ({n} {n:char|chars})',
  'mask.default': '(default)',
  'probe.checking': 'Checking credentials…',
  'probe.ok': 'Credentials verified',
  'probe.passed': 'credentials ok',
  'probe.oauth': 'Claude Code OAuth token: not verified, letting it through',
  'probe.bad.auth': 'Credentials rejected',
  'probe.bad.config': 'Wrong gateway URL or model name',
  'probe.exit.auth': 'Credentials rejected and cannot configure interactively. Run `flower setup`.',
  'probe.exit.config':
    'Wrong gateway URL or model name and cannot configure interactively. Run `flower setup`.',
  'probe.net': 'Could not reach the server: {w} — treating it as a network problem and starting anyway',
  'probe.noCred': 'no credentials',
  'probe.authRejected': 'authentication rejected',
  'probe.wrongConfig': 'wrong gateway URL or model name',
  'probe.server': 'server error (not your credentials)',
  'probe.unsure': '(inconclusive, letting it through)',
  'probe.timeout': 'no answer within {s} s',

  // The -v configuration dump (docs/configuration.md).
  'cfg.from': '(from {source})',
  'cfg.shell': 'your shell',
  'cfg.window.unset': '(not set: guessed from the model name, learned from overflows)',
  'cfg.ignored': '(ignored: not a positive number)',
  'cfg.fileMissing': '(file not found)',
  'cfg.plugin.present': 'plugin directory = {path} (present)',
  'cfg.plugin.absent':
    'plugin directory = {path} (missing: the skills, agents and hooks shipped with flower are not loaded)',
  'cfg.problem.unpaired-quote': '.env {file}:{line}: unpaired quote; the value is kept as written',
  'cfg.problem.no-equals': ".env {file}:{line}: no '=' on this line; skipped",
  'cfg.problem.bad-key': '.env {file}:{line}: not a valid variable name; skipped',
  'cfg.problem.unreadable': '.env {file}: cannot be read; skipped',
  'cfg.problem.nul-byte': '.env {file}:{line}: holds a NUL byte; skipped',
  'cfg.badWindow': 'FLOWER_WINDOW={value} is not a positive whole number; ignored',
  'cfg.badPrices': 'FLOWER_PRICES is not usable ({why}); the built-in prices are used',
  'cfg.badStall': 'FLOWER_STALL_TIMEOUT={value} is not a positive number of seconds; ignored',
  'cfg.badSandbox': 'FLOWER_SANDBOX={value} is neither on nor off; the sandbox stays on',
  'cfg.badUnreachable': 'FLOWER_UNREACHABLE_WAIT={value} is not a number of seconds (0 or more); ignored',

  // The setup dialogue (docs/configuration.md).
  'setup.title': 'Configure flower',
  'setup.where': 'Credentials will be stored in {path} (readable only by you). Set once, works everywhere.',
  'setup.q1': '1. Your API key or gateway token (official Anthropic sk-ant-… or one issued by a gateway)',
  'setup.q2': '2. Gateway URL (Enter = official Anthropic; for a gateway, its base URL without /v1)',
  'setup.q3':
    "3. Model name (Enter = default; use your gateway's model name if it has one, e.g. claude-opus-5[1m])",
  'setup.q4':
    '4. Context window (Enter = guess from the model name and learn from overflows; enter the real size, e.g. 200000, if your gateway differs)',
  'setup.current': 'current: {value} — Enter = keep, - = clear',
  'setup.currentToken': 'current: {value} — Enter = keep',
  'setup.noToken': 'No token given; cancelled.',
  'setup.tokenRequired': 'A token is required here; press Enter to keep the current one, or paste a new one.',
  'setup.badWindow': 'Enter a positive whole number such as 200000, or leave it empty.',
  'setup.badUrl': 'Enter a URL starting with http:// or https://, or leave it empty.',
  'setup.urlV1': 'Leave out the trailing /v1; flower adds it.',
  'setup.badValue':
    'This value cannot be stored in a .env file: it starts or ends with a quote, or contains a control character.',
  'setup.saved': 'Saved: {path}',
  'setup.writeFailed': 'Cannot write {path}: {reason}',
  'setup.fileHeader': '# flower credentials — written by `flower setup`. Do not commit this file.',
  'setup.shadow.shell':
    '! {key} is also exported in your shell; that value wins on every later run. Remove or update the export to use the saved one.',
  'setup.shadow.file':
    '! {key} is also set in {source}, which is read first; later runs from here use that value.',
  'setup.shadow.cleared': '! {key} is still set in {source}; later runs will use it.',
  'setup.reason.first': 'First time? Provide credentials once.',
  'setup.reason.probe': "Let's reconfigure; they will be verified right away.",
  'setup.reason.afterFail': 'Reconfigure credentials, then rerun the same command to continue.',
  'setup.reason.reconfig': 'Reconfiguring.',
  'setup.reason.none': 'No credentials configured yet.',
  'setup.noTty': 'setup needs an interactive terminal; edit {path} instead.',

  // Updates (decisions.md D13).
  'upd.found': 'New version {v} found, updating in the background…',
  'upd.done': 'Updated to {v} — takes effect next time you run flower (this run keeps the current version)',
  'upd.notice': 'flower-agent {latest} is available (this is {current}). Update with: {command}',

  // Notes on ignored flags (decisions.md D202).
  'note.goW':
    "-W has no effect with go (it uses the workspace's .flower/, or .flower-<name> beside it with --isolate)",
  'note.goT': '-T has no effect with go (trimming is already on; use --no-trim)',
  'note.clarifyOnly':
    'The brief here is already confirmed, so --clarify-only has nothing to do; add --new to clarify a new request.',

  // Container wrapper (docs/configuration.md).
  'box.noEnv': 'Cannot find {home}/.env (credentials). Point FLOWER_HOME=... at it.',
  'box.mount.1': '{pwd} is not visible to the container (colima mounts only $HOME by default).',
  'box.mount.2': "Output would be lost silently — move under $HOME, or colima start --mount '{pwd}:w'.",

  // The demo (decisions.md D16): it must say plainly that the model is scripted, and where the run's files
  // are.
  'demo.scripted':
    'flower demo: the model here is scripted. A fake Messages API bundled with flower answers every call on {url}: no credentials, no network, no cost.',
  'demo.shows':
    'It runs the whole go path: one clarifying question (answered for you), a frozen brief, a goal, a coordinator and its worker, a NOT_YET verdict, a handoff, a second round and an ACHIEVED verdict. It takes under a minute.',
  'demo.folder': 'Run folder: {path}',
  'demo.request': 'The request: {ask}',
  'demo.typed': '{prompt}{answer}   (typed by the demo for you)',
  'demo.end':
    'Demo over. Every reply came from the scripted model: nothing was sent to Anthropic and nothing was charged (the cost above is what its token counts would cost at list price).',
  'demo.failed':
    'The demo stopped early (exit {code}). Every reply came from the scripted model; nothing was charged.',
  'demo.kept': "The run's files are kept in {path}",
  'demo.kept.notes':
    '  workspace/.flower/notes/  the frozen brief.md and goal.md, qa-log.md, handoff-work.md',
  'demo.kept.runs':
    '  workspace/runs/  sessions.db (every transcript), manifest.json (one row per step and verdict), events.jsonl',
  'demo.kept.work': '  workspace/  wc.js, wc.test.js, README.md, and the bequest in CLAUDE.md and AGENTS.md',
  'demo.remove': 'Delete the folder when you are done looking.',
  'demo.next': 'For real work: run `flower setup` once, then flower "build me an X".',
} as const satisfies Record<string, string>;

/** Every key of the UI catalog. */
export type CatalogKey = keyof typeof EN_CATALOG;

/** The catalog keys, in catalog order. */
export const CATALOG_KEYS: readonly CatalogKey[] = Object.freeze(Object.keys(EN_CATALOG) as CatalogKey[]);

const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g;
/** `{n:one|other}`: the English word for the count `n`, "one" for exactly 1 (Chinese needs none). */
const PLURAL = /\{([A-Za-z0-9_]+):([^|{}]*)\|([^{}]*)\}/g;

/** The UI language an environment asks for: `FLOWER_LANG` beginning with `zh` selects Chinese, else English. */
export function languageOf(env: Env): Lang {
  return (env['FLOWER_LANG'] ?? '').trim().toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/**
 * One catalog line with its `{name}` placeholders filled from `vars`. A placeholder without a value stays as
 * written, so a missing argument is visible rather than silently empty.
 */
export function uiText(
  key: CatalogKey,
  vars: Record<string, string | number> = {},
  lang: Lang = 'en',
): string {
  const written: string = lang === 'zh' ? ZH_CATALOG[key] : EN_CATALOG[key];
  // The word for a count first (`{n:question|questions}`), on the template only: a filled-in value is
  // never read as markup.
  const template = written.replace(PLURAL, (whole, name: string, one: string, other: string) =>
    Object.hasOwn(vars, name) ? (Number(vars[name]) === 1 ? one : other) : whole,
  );
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : whole,
  );
}

/** A wait for people: under a minute in whole seconds (`45 s`), otherwise in whole minutes (`3 min`). */
export function humanDuration(seconds: number, lang: Lang = 'en'): string {
  const whole = Math.max(0, Math.round(Number.isFinite(seconds) ? seconds : 0));
  if (whole < 60) return uiText('time.seconds', { n: whole }, lang);
  return uiText('time.minutes', { n: Math.round(whole / 60) }, lang);
}
