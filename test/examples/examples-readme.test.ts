// examples/README.md is the map of the examples: every file in examples/ has its row there, so a
// new example is never one a reader cannot find.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const examples = fileURLToPath(new URL('../../examples/', import.meta.url));

describe('examples/README.md', () => {
  it('links every example file', () => {
    const readme = readFileSync(`${examples}README.md`, 'utf8');
    const files = readdirSync(examples).filter((file) => file.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((file) => !readme.includes(`](${file})`))).toEqual([]);
  });
});
