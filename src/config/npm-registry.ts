/**
 * Which npm registry the update check asks: the one npm itself would use when it exports its configuration
 * to the environment (`npm_config_registry`, as npm sets it for scripts and as users set it for mirrors),
 * else the public registry.
 *
 * @module
 */
import { processEnvironment, type Env } from './process-environment.js';

/** The public npm registry. */
export const DEFAULT_NPM_REGISTRY = 'https://registry.npmjs.org/';

/** The registry's base URL, always ending in `/`. */
export function npmRegistry(env: Env = processEnvironment()): string {
  const configured = (env['npm_config_registry'] ?? env['NPM_CONFIG_REGISTRY'] ?? '').trim();
  const registry = configured === '' ? DEFAULT_NPM_REGISTRY : configured;
  return registry.endsWith('/') ? registry : `${registry}/`;
}

/** `<registry>/<package>/latest`: the registry's document for the `latest` dist-tag of `packageName`. */
export function latestVersionUrl(registry: string, packageName: string): string {
  // A scoped name keeps its `@` but its slash is encoded, as npm requests it.
  return `${registry}${packageName.replace('/', '%2f')}/latest`;
}
