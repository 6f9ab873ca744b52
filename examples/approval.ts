// Human approval of tool calls: a destructive tool pauses the turn before it runs. The pending
// state is plain JSON (here it travels as text, as it would through a database or a browser); a
// reviewer approves one call, approves another with edited arguments and denies a third, and the
// turn resumes from the state with those decisions, on a client built anew, as another process
// would build it.
// Run: APPROVAL_KEY=$(openssl rand -base64 32) npx tsc -p tsconfig.demo.json && node dist-demo/examples/approval.js
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import {
  approveToolCall,
  ChatClient,
  type ChatModel,
  denyToolCall,
  type PendingToolApproval,
  type PendingToolCall,
  pendingApprovalOf,
  type ToolApprovalDecision,
  ToolApprovalPolicies,
  tool,
} from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';

/** A small file system the tools work on. */
export function sampleFiles(): Map<string, number> {
  return new Map([
    ['/var/log/app.log', 120],
    ['/var/log/app.log.1', 4_800],
    ['/var/log/app.log.2', 5_100],
    ['/var/log/auth.log', 2_300],
  ]);
}

/** The tools: listing is read-only, deleting is destructive (so the policy asks first). */
export function fileTools(files: Map<string, number>) {
  const listFiles = tool({
    name: 'listFiles',
    description: 'List the files under a directory with their sizes in KB',
    inputSchema: z.object({ dir: z.string() }),
    readOnly: true,
    execute: ({ dir }) => [...files].filter(([path]) => path.startsWith(dir)),
  });
  const deleteFile = tool({
    name: 'deleteFile',
    description: 'Delete one file',
    inputSchema: z.object({ path: z.string() }),
    destructive: true,
    execute: ({ path }) => (files.delete(path) ? `Deleted ${path}` : `No file ${path}`),
  });
  return [listFiles, deleteFile];
}

/** Stands in for a real model: it lists the logs, deletes three files at once, then answers. */
export function scriptedApprovalModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'listFiles', arguments: { dir: '/var/log' } }]),
    toolCallResponse([
      { id: 'del-1', name: 'deleteFile', arguments: { path: '/var/log/app.log.2' } },
      { id: 'del-2', name: 'deleteFile', arguments: { path: '/var/log/app.log*' } },
      { id: 'del-3', name: 'deleteFile', arguments: { path: '/var/log/auth.log' } },
    ]),
    textResponse(
      'I deleted app.log.2 and app.log.1 and kept auth.log: audit logs are kept for a year.',
    ),
  ]);
}

/**
 * The reviewer: keeps audit logs, replaces a wildcard by the one rotated file it meant, and
 * approves the rest. A real application shows `call.name` and `call.arguments` to a person.
 */
export function review(call: PendingToolCall): ToolApprovalDecision {
  const path = String(call.arguments.path);
  if (path.includes('auth')) return denyToolCall(call, 'Audit logs are kept for a year.');
  if (path.includes('*')) {
    return approveToolCall(call, { arguments: { path: path.replace('*', '.1') } });
  }
  return approveToolCall(call);
}

/**
 * The key that signs every pending state. In an application it is a secret kept outside the code
 * (a secret store, passed in the environment: `APPROVAL_KEY=$(openssl rand -base64 32)`), the same
 * in every process that may resume a turn: a process holding another key refuses the state as
 * `tampered-state`. A key made with `randomBytes(32)` at startup therefore works only within one
 * process; this example pauses and resumes in one, so it falls back to one when APPROVAL_KEY is unset.
 */
export function approvalSigningKey(env: NodeJS.ProcessEnv = process.env): string | Uint8Array {
  return env.APPROVAL_KEY ?? randomBytes(32);
}

/** What the example showed. */
export interface ApprovalResult {
  /** The calls that waited for a decision (empty when the model deleted nothing). */
  waiting: PendingToolCall[];
  /** The decisions made. */
  decisions: ToolApprovalDecision[];
  /** The files left after the turn. */
  remainingFiles: string[];
  answer: string | null;
}

/**
 * Runs the turn, stores the pending state as text, reviews it and resumes it on a client built
 * anew (as the process that receives the decision would build it) with `resumeKey`, by default
 * the same key.
 */
export async function runApproval(
  chatModel: ChatModel = scriptedApprovalModel(),
  log: (line: string) => void = console.log,
  signingKey: string | Uint8Array = approvalSigningKey(),
  resumeKey: string | Uint8Array = signingKey,
): Promise<ApprovalResult> {
  const files = sampleFiles();
  // Every destructive tool waits for a decision; the key signs the pending state.
  const buildClient = (key: string | Uint8Array) =>
    ChatClient.create(chatModel, {
      tools: fileTools(files),
      approval: { policy: ToolApprovalPolicies.destructive, signingKey: key },
    });
  const client = buildClient(signingKey);

  const first = await client.prompt('Free some space in /var/log.').call();
  const pending = pendingApprovalOf(first);
  if (pending === undefined) {
    log(`answer (no approval needed): ${first.chatResponse?.results[0]?.output.text}`);
    return { waiting: [], decisions: [], remainingFiles: [...files.keys()], answer: null };
  }
  log(`finish reason: ${first.chatResponse?.results[0]?.metadata.finishReason}`);
  for (const call of pending.toolCalls) {
    log(`waiting: ${call.name}(${JSON.stringify(call.arguments)})`);
  }

  // The state is plain JSON: store it, send it to a browser, resume it in another process.
  const stored = JSON.stringify(pending);

  // Later, where the decision is made: the resume checks the state's shape and signature.
  const state = JSON.parse(stored) as PendingToolApproval;
  const decisions = state.toolCalls.map(review);
  for (const decision of decisions) {
    log(`decision on ${decision.toolCallId}: ${decision.type}`);
  }
  const resumed = await buildClient(resumeKey).resume(state, decisions).call();
  const answer = resumed.chatResponse?.results[0]?.output.text ?? null;
  log(`answer: ${answer}`);
  log(`files left: ${[...files.keys()].join(', ')}`);
  return { waiting: [...pending.toolCalls], decisions, remainingFiles: [...files.keys()], answer };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runApproval();
}
