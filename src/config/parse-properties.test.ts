import { describe, expect, it } from 'vitest';
import { PropertiesSyntaxError, parseProperties } from './parse-properties.js';

describe('parseProperties', () => {
  it('reads =, : and whitespace separators with the whitespace around them dropped', () => {
    expect(parseProperties('a=1\nb : 2\nc 3\n  d\t=\t4  \ne=\nf')).toEqual([
      { key: 'a', value: '1', line: 1 },
      { key: 'b', value: '2', line: 2 },
      { key: 'c', value: '3', line: 3 },
      { key: 'd', value: '4  ', line: 4 },
      { key: 'e', value: '', line: 5 },
      { key: 'f', value: '', line: 6 },
    ]);
  });

  it('skips # and ! comments and blank lines, and keeps = and : inside values', () => {
    expect(parseProperties('# one\n  ! two\n\n\turl=http://h:1/p?a=b # not a comment\n')).toEqual([
      { key: 'url', value: 'http://h:1/p?a=b # not a comment', line: 4 },
    ]);
  });

  it('joins continuation lines, dropping the next line’s leading whitespace, and keeps the first line number', () => {
    const text = 'x=1\nargs=-y,\\\n    @scope/server,\\\n\t  --flag\nnext=2';
    expect(parseProperties(text)).toEqual([
      { key: 'x', value: '1', line: 1 },
      { key: 'args', value: '-y,@scope/server,--flag', line: 2 },
      { key: 'next', value: '2', line: 5 },
    ]);
  });

  it('treats an even number of trailing backslashes as escaped backslashes, not a continuation', () => {
    expect(parseProperties('path=C:\\\\dir\\\\\nnext=1')).toEqual([
      { key: 'path', value: 'C:\\dir\\', line: 1 },
      { key: 'next', value: '1', line: 2 },
    ]);
  });

  it('decodes \\t \\n \\r \\f \\uXXXX and escaped separators in keys and values', () => {
    expect(parseProperties('a\\=b\\:c\\ d=tab\\there\\nnew\\u00e9\\r\\f\\q')).toEqual([
      { key: 'a=b:c d', value: 'tab\there\nnewé\r\fq', line: 1 },
    ]);
  });

  it('accepts CRLF and CR line ends and a byte order mark', () => {
    expect(parseProperties('\uFEFFa=1\r\nb=2\rc=3')).toEqual([
      { key: 'a', value: '1', line: 1 },
      { key: 'b', value: '2', line: 2 },
      { key: 'c', value: '3', line: 3 },
    ]);
  });

  it('does not treat a comment marker on a continued line as a comment', () => {
    expect(parseProperties('a=1,\\\n# 2')).toEqual([{ key: 'a', value: '1,# 2', line: 1 }]);
  });

  it('rejects a malformed \\u escape with its line', () => {
    let error: unknown;
    try {
      parseProperties('ok=1\nbad=\\u12G4');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PropertiesSyntaxError);
    expect((error as PropertiesSyntaxError).line).toBe(2);
  });
});
