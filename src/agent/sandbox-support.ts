/**
 * Whether Claude Code's Bash sandbox can run here. On Linux it needs bubblewrap (`bwrap`), allowed to make
 * user and network namespaces (a container or AppArmor may forbid that), and `socat` for its network proxy.
 * Without them a sandboxed Bash call fails, so flower leaves the sandbox off and says so once.
 *
 * @module
 */
import { execFile, spawnSync } from 'node:child_process';

/** The answer of {@link sandboxSupport}. */
export type SandboxSupport = { available: true } | { available: false; reason: string };

/** What one trial program did: it could not be started at all, or it ended with `status`. */
interface TrialOutcome {
  started: boolean;
  status: number | null;
  stderr: string;
}

const BWRAP_TRIAL = ['--unshare-user', '--unshare-net', '--dev-bind', '/', '/', '/bin/true'];
const TRIAL_TIMEOUT_MS = 10_000;

const cache = new Map<string, SandboxSupport>();
const pending = new Map<string, Promise<SandboxSupport>>();

function keyOf(path: string, platform: NodeJS.Platform): string {
  return `${platform}\0${path}`;
}

/**
 * Probes once per `PATH` (the answer is cached for the process): runs the same bubblewrap trial Claude Code
 * runs and looks for `socat`. `path` is the child's `PATH`. Answers from the cache when
 * {@link probeSandboxSupport} has already settled for the same `PATH`.
 */
export function sandboxSupport(path: string, platform: NodeJS.Platform = process.platform): SandboxSupport {
  const known = cache.get(keyOf(path, platform));
  if (known !== undefined) return known;
  const answer = decide(platform, (command, args) => {
    const trial = spawnSync(command, args, {
      env: { PATH: path },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: TRIAL_TIMEOUT_MS,
    });
    return {
      started: trial.error === undefined,
      status: trial.status,
      stderr: trial.stderr?.toString('utf8') ?? '',
    };
  });
  cache.set(keyOf(path, platform), answer);
  return answer;
}

/**
 * The same probe without blocking: the trials run as child processes while the caller goes on (a command
 * starts it before it loads the runtime, so the two overlap instead of adding up), and the answer lands in
 * the cache {@link sandboxSupport} reads. Never rejects.
 */
export function probeSandboxSupport(
  path: string,
  platform: NodeJS.Platform = process.platform,
): Promise<SandboxSupport> {
  const key = keyOf(path, platform);
  const known = cache.get(key);
  if (known !== undefined) return Promise.resolve(known);
  let running = pending.get(key);
  if (running === undefined) {
    running = decideAsync(platform, (command, args) => runTrial(command, args, path)).then((answer) => {
      // A synchronous probe that finished first has the same answer; keep the first one.
      if (!cache.has(key)) cache.set(key, answer);
      pending.delete(key);
      return cache.get(key) ?? answer;
    });
    pending.set(key, running);
  }
  return running;
}

function runTrial(command: string, args: readonly string[], path: string): Promise<TrialOutcome> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { env: { PATH: path }, timeout: TRIAL_TIMEOUT_MS, encoding: 'utf8' },
      (error, _stdout, stderr) => {
        if (error === null) {
          resolve({ started: true, status: 0, stderr });
          return;
        }
        // As spawnSync reports them: a string code (ENOENT, EACCES) means the program never ran, and so
        // does a timeout; a number is its exit status; a signal leaves no status.
        const started =
          typeof error.code === 'number' || (typeof error.signal === 'string' && error.killed !== true);
        resolve({ started, status: typeof error.code === 'number' ? error.code : null, stderr });
      },
    );
  });
}

type Trial = (command: string, args: readonly string[]) => TrialOutcome;
type AsyncTrial = (command: string, args: readonly string[]) => Promise<TrialOutcome>;

function decide(platform: NodeJS.Platform, trial: Trial): SandboxSupport {
  if (platform !== 'linux') return offLinux(platform);
  const bwrap = bwrapVerdict(trial('bwrap', BWRAP_TRIAL));
  if (bwrap !== null) return bwrap;
  return socatVerdict(trial('socat', ['-V']));
}

async function decideAsync(platform: NodeJS.Platform, trial: AsyncTrial): Promise<SandboxSupport> {
  if (platform !== 'linux') return offLinux(platform);
  // Both trials at once: socat's answer only matters when bubblewrap's is fine.
  const [bwrap, socat] = await Promise.all([trial('bwrap', BWRAP_TRIAL), trial('socat', ['-V'])]);
  return bwrapVerdict(bwrap) ?? socatVerdict(socat);
}

function offLinux(platform: NodeJS.Platform): SandboxSupport {
  return { available: false, reason: `flower turns the sandbox on only on Linux (this is ${platform})` };
}

/** Null when bubblewrap works here. */
function bwrapVerdict(trial: TrialOutcome): SandboxSupport | null {
  if (!trial.started) {
    return { available: false, reason: 'bubblewrap (bwrap) is not installed: apt-get install bubblewrap' };
  }
  if (trial.status !== 0) {
    const stderr = trial.stderr.trim().split('\n')[0] ?? '';
    return { available: false, reason: `bubblewrap cannot run here: ${stderr || `exit ${trial.status}`}` };
  }
  return null;
}

function socatVerdict(trial: TrialOutcome): SandboxSupport {
  if (!trial.started) return { available: false, reason: 'socat is not installed: apt-get install socat' };
  return { available: true };
}
