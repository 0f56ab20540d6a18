#!/usr/bin/env node
/**
 * The `flower` binary: runs the CLI on the process's argv and streams, and sets the exit code.
 *
 * @module
 */
import { processEnvironment } from '../config/process-environment.js';
import { exitQuietlyOnClosedPipe } from './closed-pipe.js';
import { runCli } from './run-cli.js';

// Before anything is written: `flower --help | head -1` must not end in an EPIPE stack trace.
exitQuietlyOnClosedPipe([process.stdout, process.stderr]);

const argv = process.argv.slice(2);
const exitCode = await runCli(argv, {
  argv,
  io: {
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTty: process.stdin.isTTY === true,
    stdin: process.stdin,
    env: processEnvironment(),
    cwd: process.cwd(),
  },
});
process.exitCode = exitCode;
