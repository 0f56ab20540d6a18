/**
 * The credential probe (docs/configuration.md): one small paid request, `POST <base>/v1/messages` with
 * `max_tokens: 16`, classified as `ok`, `auth` (rejected), `config` (wrong URL or model) or `net` (could
 * not tell because the server or the network failed). `max_tokens` stays 16: with 1, models that must think
 * took about 30 s instead of about 4 s. A Claude Code OAuth token is not probed (decisions.md D27).
 *
 * @module
 */
import { DEFAULT_BASE_URL } from './known-keys.js';
import { processEnvironment, type Env } from './process-environment.js';
import { languageOf, uiText, type Lang } from './ui-text.js';

/** How the probe judged the credentials. */
export type ProbeVerdict = 'ok' | 'auth' | 'config' | 'net';

/** The probe's answer. */
export interface ProbeResult {
  verdict: ProbeVerdict;
  /** One line for the screen: `HTTP <status> <why> <detail>` or `<ErrorName>: <message>`. */
  reason: string;
  /** The HTTP status, or `null` when no response came (or no request was sent). */
  status: number | null;
  /** True only when the server answered with success; an undecidable `ok` is `false`. */
  verified: boolean;
}

/** Options for {@link probeCredentials}. */
export interface ProbeOptions {
  /** The environment holding credentials, base URL and models; the process environment by default. */
  env?: Env;
  /** Aborts the probe; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overall limit for the request and its body; 20 000 ms by default. */
  timeoutMs?: number;
  /** Model used when neither `ANTHROPIC_DEFAULT_HAIKU_MODEL` nor `ANTHROPIC_MODEL` is set. */
  fallbackModel?: string;
}

/** The probe's default time limit. */
export const PROBE_TIMEOUT_MS = 20_000;

/**
 * The model probed when the user configured none. It may be retired one day, which is why a "not found" for
 * it counts as undecidable rather than as a wrong configuration (decisions.md D213).
 */
export const PROBE_FALLBACK_MODEL = 'claude-haiku-4-5';

const NOT_FOUND_MARKERS = [
  'not_found',
  'not found',
  'does not exist',
  'unknown model',
  'no such model',
  'invalid model',
];

/** `<base URL without trailing slash>/v1/messages`; a base URL without a scheme gets `https://`. */
export function probeUrl(env: Env): string {
  let base = env['ANTHROPIC_BASE_URL'] || DEFAULT_BASE_URL;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(base)) base = `https://${base}`;
  return `${base.replace(/\/+$/, '')}/v1/messages`;
}

/** The model to probe: `ANTHROPIC_DEFAULT_HAIKU_MODEL`, then `ANTHROPIC_MODEL`, then the fallback. */
export function probeModel(
  env: Env,
  fallbackModel = PROBE_FALLBACK_MODEL,
): { model: string; fallback: boolean } {
  const configured = env['ANTHROPIC_DEFAULT_HAIKU_MODEL'] || env['ANTHROPIC_MODEL'];
  return configured ? { model: configured, fallback: false } : { model: fallbackModel, fallback: true };
}

function oneLine(text: string, limit: number): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, limit);
}

function describeError(error: unknown, timeoutMs: number, lang: Lang): string {
  if (!(error instanceof Error)) return String(error);
  // The time limit aborts fetch() with a DOMException whose text ("TimeoutError: The operation was aborted
  // due to timeout") reads like a crash; say what happened instead.
  if (error.name === 'TimeoutError') {
    return uiText('probe.timeout', { s: Math.round(timeoutMs / 100) / 10 }, lang);
  }
  // fetch() reports every network failure as "TypeError: fetch failed"; the cause says which one.
  if (error.cause instanceof Error) return error.cause.message;
  return error.message;
}

function classify(status: number, body: string, fallback: boolean, lang: Lang): ProbeResult {
  const detail = oneLine(body, 200);
  const line = (why: string, text: string) => [`HTTP ${status}`, why, text].filter(Boolean).join(' ');
  if (status === 401 || status === 403) {
    return {
      verdict: 'auth',
      reason: line(uiText('probe.authRejected', {}, lang), detail),
      status,
      verified: false,
    };
  }
  const lowered = body.toLowerCase();
  const notFound =
    status === 404 || (status === 400 && NOT_FOUND_MARKERS.some((marker) => lowered.includes(marker)));
  if (notFound && !fallback) {
    return {
      verdict: 'config',
      reason: line(uiText('probe.wrongConfig', {}, lang), detail),
      status,
      verified: false,
    };
  }
  if (status >= 500) {
    return { verdict: 'net', reason: line(uiText('probe.server', {}, lang), ''), status, verified: false };
  }
  if (status >= 200 && status < 300)
    return { verdict: 'ok', reason: `HTTP ${status}`, status, verified: true };
  // 429, other 4xx, or "not found" for our own fallback model: nothing the user can fix was shown, so let it through.
  return {
    verdict: 'ok',
    reason: line(uiText('probe.unsure', {}, lang), oneLine(body, 80)),
    status,
    verified: false,
  };
}

/**
 * Send one probe request and classify the answer. Never rejects except when `signal` aborts: network
 * failures and timeouts are the `net` verdict.
 */
export async function probeCredentials(options: ProbeOptions = {}): Promise<ProbeResult> {
  const env = options.env ?? processEnvironment();
  const lang = languageOf(env);
  const apiKey = env['ANTHROPIC_API_KEY'];
  const authToken = env['ANTHROPIC_AUTH_TOKEN'];
  if (!apiKey && !authToken) {
    if (env['CLAUDE_CODE_OAUTH_TOKEN']) {
      return { verdict: 'ok', reason: uiText('probe.oauth', {}, lang), status: null, verified: false };
    }
    return { verdict: 'auth', reason: uiText('probe.noCred', {}, lang), status: null, verified: false };
  }

  const { model, fallback } = probeModel(env, options.fallbackModel);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'anthropic-version': '2023-06-01',
  };
  if (apiKey) headers['x-api-key'] = apiKey;
  else headers['authorization'] = `Bearer ${authToken ?? ''}`;

  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await fetch(probeUrl(env), {
      method: 'POST',
      headers,
      body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
      signal,
    });
    const body = await response.text();
    return classify(response.status, body, fallback, lang);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    return { verdict: 'net', reason: describeError(error, timeoutMs, lang), status: null, verified: false };
  }
}
