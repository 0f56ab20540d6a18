/**
 * A scenario `flower chaos` drives: the fake Messages API's script, and the `flower` command line that runs it
 * (and, run again in the same folder, resumes it).
 *
 * @module
 */
import { DEMO_REQUEST } from '../demo/demo-replies.js';
import { DEMO_WINDOW, demoScenario } from '../demo/demo-scenario.js';
import { DEMO_TOOL_IDS } from '../demo/demo-tool-ids.js';
import type { FakeScript } from '../testing/fake-script.js';

/** One scenario. */
export interface ChaosScenario {
  /** Its name in the table. */
  name: string;
  /** A fresh script for one fake server (scripts read their progress from the request, so it is stateless). */
  script(): FakeScript;
  /** The arguments after `flower` for a workspace; the same arguments run it and rerun it. */
  args(workspace: string): string[];
  /** Extra environment for the flower process. */
  env: Record<string, string>;
  /**
   * The scripted calls (id bases) that change something — a file, a worker's whole job, a question to the
   * person — so completing one twice is a repeated effect. A look (`ls`, a read) redone after a crash is not.
   */
  effects: readonly string[];
  /**
   * The Q&A log (relative to the workspace) where each question put to the person is recorded once it is
   * settled: asking is the one effect the requests cannot show, since a question settled by an earlier
   * process is answered again from this log without asking (decisions.md D334). Null: none.
   */
  questionLog: string | null;
}

/**
 * The go path of `flower demo` as a separate `flower go` process: the same scripted model, no human (the
 * clarifying question times out at once and the model decides alone, which the script expects), and the
 * demo's context window so the scripted handoff happens at the same place.
 */
export const DEMO_CHAOS_SCENARIO: ChaosScenario = {
  name: 'demo',
  script: () => demoScenario({ pauseMs: 0 }),
  args: (workspace) => ['-w', workspace, 'go', DEMO_REQUEST, '--timeout', '0'],
  env: { FLOWER_WINDOW: String(DEMO_WINDOW) },
  effects: [
    DEMO_TOOL_IDS.round1Dispatch,
    DEMO_TOOL_IDS.successorDispatch,
    DEMO_TOOL_IDS.writeProgram,
    DEMO_TOOL_IDS.writeTest,
    DEMO_TOOL_IDS.runTest,
    DEMO_TOOL_IDS.writeReadme,
  ],
  questionLog: '.flower/notes/qa-log.md',
};
