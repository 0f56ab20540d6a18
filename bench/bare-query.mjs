// The baselines of bench/cli-start.mjs: the bare Agent SDK `query()` doing the same one-tool task `flower once`
// does, in a process of its own, so both sides pay for starting Node. Reads the child environment and the
// workspace from its arguments: node bench/bare-query.mjs <workspace> <env as JSON> <prompt> [--sandbox].
// With --sandbox the query runs Bash in the same Claude Code sandbox flower gives a session (bashSandbox()),
// so the sandbox's own cost shows as a baseline of its own instead of being counted as flower's.
import process from 'node:process';
// The SDK's own query(), through flower's one re-export of it (a re-export adds nothing to the work).
import { query } from '../dist/agent/claude-sdk.js';
import { bashSandbox } from '../dist/agent/bash-sandbox.js';

const [workspace, envJson, prompt, flag] = process.argv.slice(2);
const env = JSON.parse(envJson);
let ok = false;
for await (const message of query({
  prompt,
  options: {
    cwd: workspace,
    env,
    settingSources: [],
    tools: ['Bash'],
    allowedTools: ['Bash'],
    ...(flag === '--sandbox' ? { sandbox: bashSandbox() } : {}),
  },
})) {
  if (message.type === 'result') ok = message.subtype === 'success';
}
process.exitCode = ok ? 0 : 1;
