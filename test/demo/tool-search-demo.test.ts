import { describe, expect, it } from 'vitest';
import { runToolSearchDemo, toolSearchScript } from '../../src/demo/tool-search-demo.js';

describe('npm start: the tool search scenario (scripted model)', () => {
  it('prints the domains, the footprint, the offered tools per call and the final answer', async () => {
    const lines: string[] = [];
    const model = toolSearchScript();
    const result = await runToolSearchDemo(model, (line) => lines.push(line));
    expect(result.totalTools).toBe(230);
    expect(result.offeredOnCall1).toEqual(['toolSearchTool']);
    expect(result.offeredOnCall2).toHaveLength(6);
    expect(result.offeredOnCall2).toContain('finance_lookup_invoice');
    expect(result.content).toBe('Invoice INV-1001 was found in the finance system.');
    expect(1 - result.searchToolCharacters / result.allToolsCharacters).toBeGreaterThan(0.985);
    expect(lines).toContain('  finance 40 tools');
    expect(lines).toContain(
      `total characters of name + description + input schema, ALL 230 tools: ${result.allToolsCharacters}`,
    );
    expect(lines).toContain('tools OFFERED to the model on call 1: 1');
    expect(lines).toContain('final answer: Invoice INV-1001 was found in the finance system.');
    expect(model.remaining).toBe(0);
  });
});
