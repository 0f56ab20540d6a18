/**
 * The stores of the run a command works on, from its global options (`--store`, `-w`, `-r`) and the
 * configuration (`FLOWER_STORE`), checked before the command writes anything.
 *
 * @module
 */
import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';

import type { FlowerConfig } from '../config/load-config.js';
import { storeSetting } from '../config/store-settings.js';
import {
  openCheckedRunStores,
  storeKindOf,
  type RunStoreLayers,
  type RunStores,
} from '../runtime/run-stores.js';
import type { CliIo } from './cli-io.js';
import type { GlobalOptions } from './program.js';

/** `--store`, else `FLOWER_STORE`, else null (the SQLite default). */
export function commandStoreLocation(
  config: Pick<FlowerConfig, 'env'>,
  globals: Pick<GlobalOptions, 'store'>,
): string | null {
  const given = (globals.store ?? '').trim();
  return given === '' ? storeSetting(config.env) : given;
}

/**
 * `config` with `--store` in place of `FLOWER_STORE`, so whatever opens the run's stores from the
 * configuration (a `Runtime` given no store) opens the one this command was given.
 */
export function withCommandStore<C extends Pick<FlowerConfig, 'env'>>(
  config: C,
  globals: Pick<GlobalOptions, 'store'>,
): C {
  const location = commandStoreLocation(config, globals);
  return location === storeSetting(config.env)
    ? config
    : { ...config, env: { ...config.env, FLOWER_STORE: location ?? '' } };
}

/**
 * The run's stores on a PostgreSQL server, opened with one round trip, or null for the SQLite default
 * (which `Runtime` opens itself, after preparing the run directory, so a run directory that cannot be used
 * is reported as such). An unreachable server, a refused password or a malformed location stops the command
 * here with one line (`STORE_UNREADABLE`, exit 1; `USAGE`, exit 2), the password never shown, nothing
 * written.
 */
export async function openCommandStores(
  config: Pick<FlowerConfig, 'env'>,
  globals: GlobalOptions,
  io: Pick<CliIo, 'cwd'>,
  layers: RunStoreLayers = {},
): Promise<RunStores | null> {
  const given = resolve(io.cwd, globals.workspace);
  // As `Runtime` resolves them, so both name the same run directory.
  const workspace = existsSync(given) ? realpathSync(given) : given;
  const runDir = globals.runDir === undefined ? join(workspace, 'runs') : resolve(io.cwd, globals.runDir);
  const location = commandStoreLocation(config, globals);
  if (storeKindOf(location, runDir) === 'sqlite') return null;
  return await openCheckedRunStores({ runDir, workspace, location, env: config.env, layers });
}

/**
 * {@link openCommandStores} and closed again: for a command that must know the store works before it
 * writes its first file, but opens the runtime (and so the stores) later.
 */
export async function checkCommandStores(
  config: Pick<FlowerConfig, 'env'>,
  globals: GlobalOptions,
  io: Pick<CliIo, 'cwd'>,
): Promise<void> {
  await (await openCommandStores(config, globals, io))?.close();
}
