import { describe, expect, it } from 'vitest';
import { approvalDemoScript, runApprovalDemo } from '../../src/demo/approval-demo.js';

describe('npm start approval demo (scripted model)', () => {
  it('pauses before the restart, survives a restart of the process, and runs the tool once approved', async () => {
    const lines: string[] = [];
    const model = approvalDemoScript();
    const result = await runApprovalDemo(model, (line) => lines.push(line));
    expect(result).toEqual({
      waiting: ['restart_service({"serviceName":"orders-api"})'],
      restartsBeforeDecision: 0,
      restartsAfterResume: 1,
      answer: 'I restarted orders-api; it is back up.',
      modelCalls: 2,
    });
    expect(model.remaining).toBe(0);
    expect(lines).toContain('paused (finish reason approvalPending):');
    expect(lines).toContain('-- database closed: process "restarted" --');
  });
});
