// The SDK's own in-memory store runs the same suite, so the suite is known to be fair to a store flower did
// not write. It neither de-duplicates by uuid nor copies entries; the suite pins those gaps instead of
// failing, so an SDK change in either direction is noticed.
import { InMemorySessionStore } from '../../src/agent/claude-sdk.js';
import { runSessionStoreSuite } from '../../src/testing/index.js';

runSessionStoreSuite('InMemorySessionStore', () => new InMemorySessionStore(), {
  deduplicatesByUuid: false,
  isolatesEntries: false,
});
