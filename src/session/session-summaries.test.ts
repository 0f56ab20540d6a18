import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import { foldSessionSummary } from '../agent/claude-sdk.js';
import type { SessionKey, SessionStoreEntry } from '../agent/claude-sdk.js';
import { SqliteSessionStore } from './sqlite-session-store.js';

const main: SessionKey = { projectKey: '-work-app', sessionId: '6f1c2d3e-0000-4000-8000-000000000003' };

const prompt = (uuid: string, text: string): SessionStoreEntry => ({
  type: 'user',
  uuid,
  timestamp: '2026-01-02T03:04:05.000Z',
  cwd: '/srv/app',
  message: { role: 'user', content: text },
});

describe('SessionSummaries', () => {
  let directory: string;
  const stores: SqliteSessionStore[] = [];
  const open = () => {
    const store = new SqliteSessionStore(join(directory, 'sessions.db'));
    stores.push(store);
    return store;
  };

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'flower-session-summaries-'));
  });

  afterEach(() => {
    for (const store of stores.splice(0)) store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  test('folds in what another connection appended between two of its own batches', async () => {
    const mine = open();
    const theirs = open();
    const batches: SessionStoreEntry[][] = [
      [prompt('u1', 'first prompt')],
      [
        { type: 'custom-title', customTitle: 'Their title' },
        { type: 'x', gitBranch: 'feature' },
      ],
      [{ type: 'last-prompt', lastPrompt: 'my last prompt' }],
    ];
    await mine.append(main, batches[0]!);
    await theirs.append(main, batches[1]!);
    await mine.append(main, batches[2]!);
    const [summary] = await open().listSessionSummaries(main.projectKey);
    expect(summary).toEqual(foldSessionSummary(undefined, main, batches.flat(), { mtime: summary!.mtime }));
    expect(summary!.data).toMatchObject({ customTitle: 'Their title', gitBranch: 'feature' });
  });

  test('folds in what another connection appended after deleting and rewriting the session', async () => {
    const mine = open();
    const theirs = open();
    await mine.append(main, [prompt('u1', 'first prompt'), { type: 'x', gitBranch: 'old' }]);
    await theirs.delete(main);
    const rewritten = [prompt('u9', 'other prompt'), { type: 'x', gitBranch: 'new' }];
    await theirs.append(main, rewritten);
    const last = { type: 'last-prompt', lastPrompt: 'again' };
    await mine.append(main, [last]);
    const [summary] = await open().listSessionSummaries(main.projectKey);
    expect(summary).toEqual(
      foldSessionSummary(undefined, main, [...rewritten, last], { mtime: summary!.mtime }),
    );
  });
});
