import { describe, expect, test } from 'vitest';
import { closingLine, continueLine, recordsPlace, resumeOnceWords } from './stop-lines.js';

describe('stop lines', () => {
  test('the closing line has the cost, the manifest and the elapsed time', () => {
    expect(closingLine(0.01234, { kind: 'file', path: '/w/runs/manifest.json' }, 83, 'en')).toBe(
      'Total cost $0.0123 · manifest /w/runs/manifest.json · 1:23',
    );
  });

  test('a run on PostgreSQL names its records on the server, never a manifest file', () => {
    const runtime = {
      manifestPath: '/w/runs/manifest.json',
      records: { kind: 'postgres' as const, location: 'postgres://flower:***@db:5432/runs run app' },
    };
    expect(closingLine(0.5, recordsPlace(runtime), 61, 'en')).toBe(
      'Total cost $0.5000 · records in postgres://flower:***@db:5432/runs run app · 1:01',
    );
    const files = { ...runtime, records: { kind: 'file' as const, location: '/w/runs' } };
    expect(recordsPlace(files)).toEqual({ kind: 'file', path: '/w/runs/manifest.json' });
  });

  test('the continue line is the command as typed, quoted for a shell', () => {
    expect(continueLine('SIGINT', ['-w', '/tmp/w', 'go', 'fix the tests'], 'en')).toBe(
      "Stopped by Ctrl-C; continue with: flower -w /tmp/w go 'fix the tests'",
    );
    expect(continueLine('SIGTERM', ['run', './flows.js:main'], 'en')).toBe(
      'Stopped by SIGTERM; continue with: flower run ./flows.js:main',
    );
    expect(continueLine('SIGHUP', undefined, 'en')).toBe(
      'Stopped by SIGHUP; run the same command again to continue',
    );
  });

  test('once continues in the stopped session', () => {
    expect(resumeOnceWords(['-w', 'x', 'once', '-i', 'be brief', 'hello'], 'abc')).toEqual([
      '-w',
      'x',
      'once',
      '--resume',
      'abc',
      '-i',
      'be brief',
      'hello',
    ]);
    expect(resumeOnceWords(['once', '--resume', 'old', '--fork', 'go on'], 'new')).toEqual([
      'once',
      '--resume',
      'new',
      'go on',
    ]);
    expect(resumeOnceWords(['once', 'hello'], null)).toEqual(['once', 'hello']);
  });
});
