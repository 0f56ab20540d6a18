/**
 * Whether Claude Code's Bash sandbox can run here. On Linux it needs bubblewrap (`bwrap`), allowed to make
 * user and network namespaces (a container or AppArmor may forbid that), and `socat` for its network proxy.
 * Without them a sandboxed Bash call fails, so flower leaves the sandbox off and says so once.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';

/** The answer of {@link sandboxSupport}. */
export type SandboxSupport = { available: true } | { available: false; reason: string };

const cache = new Map<string, SandboxSupport>();

/**
 * Probes once per `PATH` (the answer is cached for the process): runs the same bubblewrap trial Claude Code
 * runs and looks for `socat`. `path` is the child's `PATH`.
 */
export function sandboxSupport(path: string, platform: NodeJS.Platform = process.platform): SandboxSupport {
  const known = cache.get(`${platform}\0${path}`);
  if (known !== undefined) return known;
  const answer = probe(path, platform);
  cache.set(`${platform}\0${path}`, answer);
  return answer;
}

function probe(path: string, platform: NodeJS.Platform): SandboxSupport {
  if (platform !== 'linux') {
    return { available: false, reason: `flower turns the sandbox on only on Linux (this is ${platform})` };
  }
  const env = { PATH: path };
  const trial = spawnSync('bwrap', ['--unshare-user', '--unshare-net', '--dev-bind', '/', '/', '/bin/true'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 10_000,
  });
  if (trial.error !== undefined) {
    return { available: false, reason: 'bubblewrap (bwrap) is not installed: apt-get install bubblewrap' };
  }
  if (trial.status !== 0) {
    const stderr = trial.stderr.toString('utf8').trim().split('\n')[0] ?? '';
    return { available: false, reason: `bubblewrap cannot run here: ${stderr || `exit ${trial.status}`}` };
  }
  const socat = spawnSync('socat', ['-V'], { env, stdio: 'ignore', timeout: 10_000 });
  if (socat.error !== undefined) {
    return { available: false, reason: 'socat is not installed: apt-get install socat' };
  }
  return { available: true };
}
