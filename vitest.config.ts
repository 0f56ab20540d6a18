import { defineConfig } from 'vitest/config';

// Two projects: fast unit tests (pure logic, in-process fakes, real SQLite files) and end-to-end tests
// that spawn the real Claude Code binary through the SDK against the fake Messages API.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // Projects with different worker limits need distinct group orders; unit tests run first.
          sequence: { groupOrder: 0 },
          include: ['src/**/*.test.ts', 'test/conformance/**/*.test.ts', 'test/unit/**/*.test.ts'],
          setupFiles: ['test/setup/stdio-guard.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          sequence: { groupOrder: 1 },
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          // Each e2e file spawns Claude Code processes (~250 MB each); two cores, so keep it modest.
          maxWorkers: 2,
          fileParallelism: true,
        },
      },
    ],
  },
});
