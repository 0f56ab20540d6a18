/**
 * `FLOWER_PRICES`: the user's own prices, for a gateway that charges differently or a model newer than
 * flower's table (docs/configuration.md). The value is a JSON file's path (relative paths are taken from the
 * `.env` file that set it, else from the current directory) or the JSON itself:
 *
 * ```json
 * { "taken": "2027-01-10", "models": { "my-gateway-model": { "input": 3, "output": 15 } } }
 * ```
 *
 * Prices are dollars per million tokens; `cacheWrite` and `cacheRead` default to 1.25× and 0.1× `input`, as
 * in the list prices. A value that cannot be read is ignored with one warning line naming what is wrong.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isRecord } from '../internal/is-record.js';
import { errorMessage } from '../internal/error-text.js';

/** Dollars per million tokens of one model. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/** The prices `FLOWER_PRICES` gives, and the date they were taken (null when it did not say). */
export interface PriceOverrides {
  taken: string | null;
  models: Readonly<Record<string, Readonly<ModelPrice>>>;
}

/** What {@link readPriceOverrides} found: the overrides (null when none or unreadable) and a warning. */
export interface PriceOverridesResult {
  overrides: PriceOverrides | null;
  /** What is wrong with the setting, for one warning line; null when nothing is. */
  problem: string | null;
}

function price(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** The overrides in `json`, or the reason they are not usable. */
export function parsePriceOverrides(json: unknown): PriceOverrides | string {
  if (!isRecord(json) || !isRecord(json['models']))
    return 'expected {"models": {"<model>": {"input": …, "output": …}}}';
  const models: Record<string, ModelPrice> = {};
  for (const [model, value] of Object.entries(json['models'])) {
    if (!isRecord(value)) return `model ${model}: expected an object of prices`;
    const input = price(value['input']);
    const output = price(value['output']);
    if (input === null || output === null)
      return `model ${model}: input and output must be numbers, 0 or more`;
    const cacheWrite = value['cacheWrite'] === undefined ? input * 1.25 : price(value['cacheWrite']);
    const cacheRead = value['cacheRead'] === undefined ? input * 0.1 : price(value['cacheRead']);
    if (cacheWrite === null || cacheRead === null)
      return `model ${model}: cacheWrite and cacheRead must be numbers, 0 or more`;
    models[model.trim().toLowerCase()] = Object.freeze({ input, output, cacheWrite, cacheRead });
  }
  const taken = typeof json['taken'] === 'string' ? json['taken'] : null;
  return { taken, models: Object.freeze(models) };
}

/**
 * Reads `FLOWER_PRICES` from `value`: inline JSON when it starts with `{`, else a file's path, resolved
 * against `fromFile`'s folder (the `.env` that set it) or `cwd`.
 */
export function readPriceOverrides(
  value: string | undefined,
  where: { fromFile?: string | undefined; cwd: string },
): PriceOverridesResult {
  const setting = (value ?? '').trim();
  if (setting === '') return { overrides: null, problem: null };
  let text = setting;
  if (!setting.startsWith('{')) {
    const path = resolve(where.fromFile === undefined ? where.cwd : dirname(where.fromFile), setting);
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      return { overrides: null, problem: `cannot read ${path}: ${errorMessage(error)}` };
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { overrides: null, problem: `not JSON: ${errorMessage(error)}` };
  }
  const parsed = parsePriceOverrides(json);
  return typeof parsed === 'string'
    ? { overrides: null, problem: parsed }
    : { overrides: parsed, problem: null };
}
