import { InvalidArgumentError } from '../errors/index.js';
import type { ToolSearchRequest } from './tool-reference.js';

/**
 * Checks the fields of a search request an index reads, so that a malformed request (a number for
 * a query, say, from untyped code) fails with an error naming the field rather than a `TypeError`
 * from deep inside the index, and so that a `HybridToolIndex` refuses it before taking any of its
 * indexes out of service for it. An absent query or session id stays allowed: it finds nothing.
 *
 * @throws InvalidArgumentError naming the first field that is wrong.
 */
export function checkSearchRequest(request: ToolSearchRequest): void {
  if (request === null || typeof request !== 'object') {
    throw new InvalidArgumentError('a search request must be an object');
  }
  const { sessionId, query, categoryFilter, maxResults } = request as unknown as Record<
    string,
    unknown
  >;
  for (const [name, value] of [
    ['sessionId', sessionId],
    ['query', query],
    ['categoryFilter', categoryFilter],
  ] as const) {
    if (value !== undefined && value !== null && typeof value !== 'string') {
      throw new InvalidArgumentError(`${name} must be a string, got ${typeof value}`);
    }
  }
  if (
    maxResults !== undefined &&
    maxResults !== null &&
    !(Number.isInteger(maxResults) && (maxResults as number) >= 0)
  ) {
    throw new InvalidArgumentError(
      `maxResults must be a non-negative integer, got ${String(maxResults)}`,
    );
  }
}
