#!/usr/bin/env node
// The `toolloop` command (package.json "bin"): see run-cli.ts for the commands and exit codes.
import { runCli } from './run-cli.js';

// A reader that stopped reading (`toolloop mcp tools … | head`) closes the pipe: the rest of the
// output has nowhere to go, so the command ends quietly, as Unix tools do, instead of dying on
// an unhandled EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const code = await runCli(process.argv.slice(2), { out: process.stdout, err: process.stderr });
process.exitCode = code;
// Servers and timers of a finished command must not keep the process alive.
setTimeout(() => process.exit(code), 200).unref();
