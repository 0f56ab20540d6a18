/**
 * What a run stopped by Ctrl-C, SIGTERM or SIGHUP says last: the closing line a finished run prints (cost,
 * manifest, elapsed time), then how it stopped and the exact command that continues it. A person who stops a
 * run that has spent money wants both, and the command is what they would otherwise have to reconstruct.
 *
 * @module
 */
import { uiText, type Lang } from '../config/ui-text.js';
import { formatElapsed } from '../render/format-numbers.js';
import type { RunRecords } from '../runtime/run-records.js';
import { shellWords } from './shell-words.js';

/**
 * Where a run's records are, as its last lines name them: `manifest.json` in the run directory, or the
 * server's records (redacted location and run name) for a run on PostgreSQL, which has no manifest file.
 */
export interface RecordsPlace {
  /** `file`: `path` is the manifest file; `postgres`: `path` is the redacted location and the run's name. */
  kind: RunRecords['kind'];
  /** Safe to print. */
  path: string;
}

/** The place of a runtime's records: its manifest file, or its records on a server. */
export function recordsPlace(runtime: {
  readonly manifestPath: string;
  readonly records: Pick<RunRecords, 'kind' | 'location'>;
}): RecordsPlace {
  return runtime.records.kind === 'file'
    ? { kind: 'file', path: runtime.manifestPath }
    : { kind: runtime.records.kind, path: runtime.records.location };
}

/** `Total cost $0.0123 · manifest <path>` (or `· records in <server>` for a run on PostgreSQL). */
export function closingText(costUsd: number, place: RecordsPlace, lang: Lang): string {
  const vars = { c: costUsd.toFixed(4), path: place.path };
  return uiText(place.kind === 'file' ? 'close' : 'close.server', vars, lang);
}

/** The closing line: `Total cost $0.0123 · manifest <path> · 1:23`, as at the end of every run. */
export function closingLine(costUsd: number, place: RecordsPlace, elapsedS: number, lang: Lang): string {
  return `${closingText(costUsd, place, lang)} · ${formatElapsed(elapsedS)}`;
}

/** How a signal reads to a person: Ctrl-C for SIGINT, the signal's name otherwise. */
export function signalName(signal: NodeJS.Signals): string {
  return signal === 'SIGINT' ? 'Ctrl-C' : signal;
}

/**
 * `Stopped by Ctrl-C; continue with: flower …`: the words typed after `flower` run again (a rerun continues a
 * run where it stopped). Without them (flower called as a function), the same in words.
 */
export function continueLine(
  signal: NodeJS.Signals,
  argv: readonly string[] | undefined,
  lang: Lang,
): string {
  const how = signalName(signal);
  if (argv === undefined) return uiText('quit.rerun', { signal: how }, lang);
  return uiText('quit.continue', { signal: how, command: `flower ${shellWords(argv)}` }, lang);
}

/**
 * The words that continue a `once` run in its session: the words typed, with `--resume <session>` right after
 * `once` (an earlier `--resume` or `--fork` dropped: the session to continue is the one that was stopped).
 * Unchanged when there is no session yet or `once` is not among the words.
 */
export function resumeOnceWords(argv: readonly string[], sessionId: string | null): readonly string[] {
  const at = argv.indexOf('once');
  if (sessionId === null || at < 0) return argv;
  const rest: string[] = [];
  for (let index = at + 1; index < argv.length; index++) {
    const word = argv[index] ?? '';
    if (word === '--') {
      rest.push(...argv.slice(index));
      break;
    }
    if (word === '--fork' || word.startsWith('--resume=')) continue;
    if (word === '--resume') {
      index++;
      continue;
    }
    rest.push(word);
  }
  return [...argv.slice(0, at + 1), '--resume', sessionId, ...rest];
}
