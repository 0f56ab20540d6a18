/**
 * The ids of `flower demo`'s scripted tool calls: the script reads how far it got from the results that come
 * back for them, so a retried or resumed request gets the same answer.
 *
 * @module
 */
/**
 * The bases of the scripted tool calls' ids (each call adds `__<turn>`): the script reads its progress from the
 * results that come back.
 */
export const DEMO_TOOL_IDS = {
  ask: 'toolu_demo_clarify_ask',
  round1Look: 'toolu_demo_round1_look',
  round1Dispatch: 'toolu_demo_round1_dispatch',
  round2Look: 'toolu_demo_round2_look',
  successorDispatch: 'toolu_demo_successor_dispatch',
  successorLook: 'toolu_demo_successor_look',
  writeProgram: 'toolu_demo_code_write_program',
  writeTest: 'toolu_demo_code_write_test',
  runTest: 'toolu_demo_code_run_test',
  writeReadme: 'toolu_demo_readme_write',
  checkReadme: 'toolu_demo_readme_check',
  judgeLook: 'toolu_demo_judge_look',
  judgeRead: 'toolu_demo_judge_read',
} as const;
