/**
 * Loading the target of `flower run <module>:<export>` (docs/workflows.md): split at the last colon
 * (a Windows path has a colon of its own, decisions.md D222); a module part with a script extension is a file
 * relative to the cwd and must exist, anything else is a package or module name resolved from the cwd. The
 * export is a Workflow, or a function called (and awaited) once to build one. Every failure is one line.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { uiText, type Lang } from '../config/ui-text.js';
import { FlowerError } from '../errors.js';
import type { EventSink } from '../events/flower-event.js';
import { HumanChannel } from '../human/human-channel.js';
import { nearestName } from '../internal/nearest-name.js';
import { Workbench } from '../workbench/workbench.js';
import type { Ctx } from '../workflow/step.js';
import type { RuntimeLike } from '../workflow/runtime-like.js';

/**
 * What `flower run` needs of a workflow, typed. The module's export is checked by shape, so a workflow built
 * with another copy of flower works; its channel and workbench are checked here, once, where the untyped
 * value comes in, so the rest of the CLI uses them as they are.
 */
export interface RunnableWorkflow {
  run(rt: RuntimeLike, options?: { onEvent?: EventSink | null; signal?: AbortSignal }): Promise<Ctx>;
  readonly steps: readonly unknown[];
  /** Its human channel: a `HumanChannel`, or one from another copy with the methods the live line calls. */
  readonly channel: HumanChannel | null;
  /** Its own workbench; only this copy's `Workbench` (another copy's is left out, and `-W` decides). */
  readonly workbench: Workbench | null;
  /** Failures it recorded instead of throwing (a `Workflow` has them). */
  readonly uiErrors?: readonly string[];
}

/** The untyped export, as far as it has been checked. */
interface WorkflowShape {
  run: RunnableWorkflow['run'];
  steps: readonly unknown[];
  channel?: unknown;
  workbench?: unknown;
  uiErrors?: unknown;
}

const SCRIPT_FILE = /\.(?:[mc]?js|[mc]?ts)$/i;
const TYPESCRIPT_FILE = /\.[mc]?ts$/i;

/** The workflow `target` names, resolved against `cwd`. Throws `FlowerError` with one line. */
export async function loadTarget(target: string, cwd: string, lang: Lang = 'en'): Promise<RunnableWorkflow> {
  const colon = target.lastIndexOf(':');
  const modulePart = colon < 0 ? '' : target.slice(0, colon);
  const exportName = colon < 0 ? '' : target.slice(colon + 1);
  // `C:\flows.js` alone is a path whose only colon is the drive's.
  if (modulePart === '' || exportName === '' || /^[a-z]$/i.test(modulePart)) {
    throw new FlowerError('TARGET_FORM', uiText('err.run.form', {}, lang));
  }
  const url = moduleUrl(modulePart, cwd, lang);
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    if (
      TYPESCRIPT_FILE.test(modulePart) &&
      (error as { code?: unknown }).code === 'ERR_UNKNOWN_FILE_EXTENSION'
    ) {
      const bin = process.argv[1] ?? 'flower';
      const vars = { v: process.versions.node, p: modulePart, bin, target };
      throw new FlowerError('TS_LOADER_MISSING', uiText('err.run.tsLoader', vars, lang), { cause: error });
    }
    throw importError(modulePart, error, lang);
  }
  if (!Object.hasOwn(loaded, exportName)) {
    // Name what is there: a typo is then fixed from the message, without opening the module.
    const exported = Object.keys(loaded).sort();
    const nearest = nearestName(exportName, exported);
    const near = nearest === null ? '' : uiText('err.run.noAttrNear', { name: nearest }, lang);
    const names = exported.length === 0 ? uiText('err.run.noExports', {}, lang) : exported.join(', ');
    throw new FlowerError(
      'TARGET_NO_EXPORT',
      uiText('err.run.noAttr', { m: modulePart, a: exportName, near, names }, lang),
    );
  }
  let value = loaded[exportName];
  if (typeof value === 'function' && !isWorkflow(value)) {
    try {
      value = await (value as () => unknown)();
    } catch (error) {
      throw importError(target, error, lang);
    }
  }
  if (!isWorkflow(value)) {
    throw new FlowerError(
      'TARGET_NO_EXPORT',
      uiText('err.run.notWorkflow', { m: modulePart, a: exportName }, lang),
    );
  }
  const workflow = value;
  return {
    run: (rt, options) => workflow.run(rt, options),
    steps: workflow.steps,
    channel: humanChannelOf(workflow.channel),
    workbench: workflow.workbench instanceof Workbench ? workflow.workbench : null,
    ...(Array.isArray(workflow.uiErrors) ? { uiErrors: workflow.uiErrors as readonly string[] } : {}),
  };
}

/** The workflow's channel when it is a human channel (by shape: it may come from another copy). */
function humanChannelOf(channel: unknown): HumanChannel | null {
  if (channel instanceof HumanChannel) return channel;
  if (typeof channel !== 'object' || channel === null) return null;
  const methods = ['pending', 'answer', 'decline', 'send'] as const;
  const candidate = channel as Record<(typeof methods)[number], unknown>;
  return methods.every((name) => typeof candidate[name] === 'function') ? (channel as HumanChannel) : null;
}

function moduleUrl(modulePart: string, cwd: string, lang: Lang): string {
  if (SCRIPT_FILE.test(modulePart)) {
    const path = resolve(cwd, modulePart);
    if (!existsSync(path)) {
      throw new FlowerError('TARGET_NOT_FOUND', uiText('err.run.notFound', { p: modulePart, cwd }, lang));
    }
    return pathToFileURL(path).href;
  }
  try {
    return pathToFileURL(createRequire(join(cwd, 'package.json')).resolve(modulePart)).href;
  } catch (error) {
    throw importError(modulePart, error, lang);
  }
}

function importError(what: string, error: unknown, lang: Lang): FlowerError {
  const reason = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
  return new FlowerError('TARGET_IMPORT', uiText('err.run.import', { m: what, e: reason }, lang), {
    cause: error,
  });
}

function isWorkflow(value: unknown): value is WorkflowShape {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const candidate = value as { run?: unknown; steps?: unknown };
  return typeof candidate.run === 'function' && Array.isArray(candidate.steps);
}
