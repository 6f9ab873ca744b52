import { count, runSequentially, warmUp } from './harness.js';
import { toolloopCall, toolloopSetup, toolloopStream } from './toolloop.js';

/**
 * The process that `hot-path-profile.ts` runs under `node --cpu-prof`: warms toolloop up, then
 * runs `argv[3]` conversations in `argv[2]` mode (`call` or `stream`) and prints the
 * monotonic-clock window (µs) of that run as JSON, so the profile can be cut to it.
 */

const mode = process.argv[2] === 'stream' ? 'stream' : 'call';
const conversations = Number(process.argv[3] ?? 1000);
const setup = toolloopSetup(3, 0);
const conversation =
  mode === 'call'
    ? () => toolloopCall(setup)
    : async () => {
        for await (const _chunk of toolloopStream(setup)) {
          // Read every chunk, as a caller would.
        }
      };
await warmUp(conversation, { budgetMs: count(1000, 20), maxRuns: 20_000 });
const startUs = Number(process.hrtime.bigint() / 1000n);
await runSequentially(conversations, conversation);
const endUs = Number(process.hrtime.bigint() / 1000n);
process.stdout.write(JSON.stringify({ startUs, endUs }));
