// Preloaded by bench/once-phases.mjs (`node --import`): appends this process's milestones to the file named
// by ONCE_PHASES_LOG as JSON lines — the hook itself (Node has started), each child it spawns and its exit
// (flower starts Claude Code through `setpriv`, the bare script directly), and the process's own exit with
// its own CPU time.
import childProcess from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import process from 'node:process';

const log = process.env.ONCE_PHASES_LOG;
const mark = (name, extra = {}) =>
  appendFileSync(log, `${JSON.stringify({ name, at: Date.now(), ...extra })}\n`);
mark('hook');
const spawn = childProcess.spawn;
childProcess.spawn = function spawnMarked(command, ...rest) {
  const child = spawn.call(this, command, ...rest);
  const label = /claude|setpriv/.test(String(command)) ? 'claude' : String(command).split('/').pop();
  mark(`spawn:${label}`);
  child.once('exit', () => mark(`exit:${label}`));
  return child;
};
// The SDK and flower import `spawn` by name: make the named export see the wrapper too.
syncBuiltinESMExports();
// The process's own CPU time (not its children's): what a loaded machine changes least.
process.once('exit', () => {
  const { user, system } = process.cpuUsage();
  mark('exit', { cpuMs: (user + system) / 1000 });
});
