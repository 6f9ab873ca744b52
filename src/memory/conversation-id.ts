import { InvalidArgumentError } from '../errors/index.js';
import type { Message } from '../messages/index.js';
import { messageProblem } from '../messages/message-problem.js';

/** Throws Spring AI's error unless `conversationId` is a string with a non-blank character. */
export function assertConversationId(conversationId: unknown): asserts conversationId is string {
  if (typeof conversationId !== 'string' || !/\S/u.test(conversationId)) {
    throw new InvalidArgumentError('conversationId cannot be null or empty');
  }
}

/**
 * Throws Spring AI's errors unless `messages` is an array without null elements, then an
 * `InvalidArgumentError` naming the first element that is not a valid message (see
 * {@link messageProblem}), so no store ever holds a row it could not give back.
 */
export function assertMessages(messages: unknown): asserts messages is readonly Message[] {
  if (!Array.isArray(messages)) throw new InvalidArgumentError('messages cannot be null');
  for (const message of messages) {
    if (message === null || message === undefined || typeof message !== 'object') {
      throw new InvalidArgumentError('messages cannot contain null elements');
    }
  }
  messages.forEach((message, index) => {
    const problem = messageProblem(message);
    if (problem !== undefined) {
      throw new InvalidArgumentError(`messages[${index}] is not a valid message: ${problem}`);
    }
  });
}
