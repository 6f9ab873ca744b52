import { describe, expect, it } from 'vitest';
import { ToolExecutionError } from '../errors/index.js';
import {
  createDefaultToolExecutionExceptionProcessor,
  errorTypeName,
} from './tool-execution-exception-processor.js';

class IllegalStateException extends Error {}
class SpecialIllegalStateException extends IllegalStateException {}
class UnrelatedError extends Error {}

function failure(cause: unknown): ToolExecutionError {
  return new ToolExecutionError({ toolName: 'toolName', cause });
}

describe('createDefaultToolExecutionExceptionProcessor', () => {
  it("returns the cause's message", () => {
    const process = createDefaultToolExecutionExceptionProcessor();
    expect(process(failure(new IllegalStateException('Inner exception')))).toBe('Inner exception');
  });

  it('names the tool and the cause class when the message is blank', () => {
    const process = createDefaultToolExecutionExceptionProcessor();
    expect(process(failure(new IllegalStateException()))).toBe(
      'Exception occurred in tool: toolName (IllegalStateException)',
    );
    expect(process(failure(new TypeError('   ')))).toBe(
      'Exception occurred in tool: toolName (TypeError)',
    );
    expect(process(failure(new Error('')))).toBe('Exception occurred in tool: toolName (Error)');
  });

  it('describes thrown non-errors and a missing cause', () => {
    const process = createDefaultToolExecutionExceptionProcessor();
    expect(process(new ToolExecutionError({ toolName: 't', cause: 'boom' }))).toBe(
      'Exception occurred in tool: t (String)',
    );
    expect(process(new ToolExecutionError({ toolName: 't' }))).toBe(
      'Exception occurred in tool: t (ToolExecutionError)',
    );
  });

  it('throws the ToolExecutionError with alwaysThrow', () => {
    const process = createDefaultToolExecutionExceptionProcessor({ alwaysThrow: true });
    const error = failure(new IllegalStateException('Inner exception'));
    expect(() => process(error)).toThrow(error);
  });

  it('rethrows the original cause when its class is listed', () => {
    const process = createDefaultToolExecutionExceptionProcessor({
      rethrow: [IllegalStateException],
    });
    const cause = new IllegalStateException('Inner exception');
    expect(() => process(failure(cause))).toThrow(cause);
  });

  it('rethrows subclasses of a listed class', () => {
    const process = createDefaultToolExecutionExceptionProcessor({ rethrow: [Error] });
    const cause = new SpecialIllegalStateException('special');
    let thrown: unknown;
    try {
      process(failure(cause));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBe(cause);
  });

  it('returns the message of causes that are not listed', () => {
    const process = createDefaultToolExecutionExceptionProcessor({
      rethrow: [IllegalStateException],
    });
    expect(process(failure(new UnrelatedError('not listed')))).toBe('not listed');
  });

  it('treats every error as runtime: an Error cause is told to the model by default', () => {
    // The reference always rethrows checked and Error causes; JS has no such split.
    const process = createDefaultToolExecutionExceptionProcessor();
    expect(process(failure(new RangeError('stack overflow')))).toBe('stack overflow');
  });
});

describe('errorTypeName', () => {
  it('names classes, plain objects and primitives', () => {
    expect(errorTypeName(new TypeError('x'))).toBe('TypeError');
    expect(errorTypeName(Object.create(null))).toBe('Object');
    expect(errorTypeName(42)).toBe('number');
    expect(errorTypeName(undefined)).toBe('undefined');
  });
});
