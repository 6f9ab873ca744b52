import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import {
  approveToolCall,
  ChatClient,
  type ChatModel,
  type PendingToolApproval,
  pendingApprovalOf,
  ToolApprovalPolicies,
  tool,
} from '../index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { RecordingChatModel } from './recording-chat-model.js';

/** What the approval scenario showed. */
export interface ApprovalDemoResult {
  /** The calls that waited, as `name(arguments)`. */
  waiting: string[];
  /** Restarts the tool performed before the decision, and after the resume. */
  restartsBeforeDecision: number;
  restartsAfterResume: number;
  answer: string | null;
  modelCalls: number;
}

/** The scripted model: it restarts orders-api, then reports. */
export function approvalDemoScript(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([
      { id: 'call-restart', name: 'restart_service', arguments: { serviceName: 'orders-api' } },
    ]),
    textResponse('I restarted orders-api; it is back up.'),
  ]);
}

/**
 * "Approval gate: pause before executing a destructive tool and wait for human confirmation":
 * the turn pauses, its state goes into SQLite, the "process" restarts, and an operator's approval
 * resumes it with a new client.
 */
export async function runApprovalDemo(
  model: ChatModel = approvalDemoScript(),
  log: (line: string) => void = console.log,
): Promise<ApprovalDemoResult> {
  const directory = mkdtempSync(join(tmpdir(), 'toolloop-approval-demo-'));
  const file = join(directory, 'approvals.db');
  const recorder = new RecordingChatModel(model);
  const signingKey = randomBytes(32);
  let restarts = 0;
  const restartService = tool({
    name: 'restart_service',
    description: 'Restart a service (drops its open connections)',
    inputSchema: z.object({ serviceName: z.string() }),
    destructive: true,
    execute: ({ serviceName }) => {
      restarts++;
      return { service: serviceName, status: 'RESTARTED' };
    },
  });
  // Both "processes" build the same client: the policy asks before every destructive tool.
  const newClient = () =>
    ChatClient.create(recorder, {
      tools: [restartService],
      approval: { policy: ToolApprovalPolicies.destructive, signingKey },
    });

  try {
    const database = new Database(file);
    database.exec('CREATE TABLE pending (id TEXT PRIMARY KEY, state TEXT NOT NULL)');
    const first = await newClient().prompt('orders-api is slow. Restart it.').call();
    const pending = pendingApprovalOf(first);
    if (pending === undefined) {
      const answer = first.chatResponse?.results[0]?.output.text ?? null;
      log(`the model asked for no destructive tool: ${answer}`);
      database.close();
      return {
        waiting: [],
        restartsBeforeDecision: restarts,
        restartsAfterResume: restarts,
        answer,
        modelCalls: recorder.prompts.length,
      };
    }
    const waiting = pending.toolCalls.map((c) => `${c.name}(${JSON.stringify(c.arguments)})`);
    log(`paused (finish reason ${first.chatResponse?.results[0]?.metadata.finishReason}):`);
    for (const call of waiting) log(`  waiting for approval: ${call}`);
    const restartsBeforeDecision = restarts;
    log(`restarts so far: ${restartsBeforeDecision}`);
    database.prepare('INSERT INTO pending VALUES (?, ?)').run('op-1', JSON.stringify(pending));
    log(`pending state stored in SQLite (${JSON.stringify(pending).length} bytes of JSON, signed)`);
    database.close();
    log('-- database closed: process "restarted" --');

    const reopened = new Database(file);
    const row = reopened
      .prepare('DELETE FROM pending WHERE id = ? RETURNING state')
      .get('op-1') as {
      state: string;
    };
    reopened.close();
    const state = JSON.parse(row.state) as PendingToolApproval;
    log('operator: approve');
    const answer = await newClient()
      .resume(
        state,
        state.toolCalls.map((call) => approveToolCall(call)),
      )
      .call()
      .content();
    log(`restarts after the resume: ${restarts}`);
    log(`answer: ${answer ?? '(no text)'}`);
    log('');
    return {
      waiting,
      restartsBeforeDecision,
      restartsAfterResume: restarts,
      answer,
      modelCalls: recorder.prompts.length,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
