import { ProviderErrors } from '../internal/provider-errors.js';
import { aggregateChatResponses, type ChatResponse } from '../model/index.js';
import { GoogleStreamAssembler } from './google-stream-assembler.js';

/**
 * Converts a non-streamed `generateContent` body to a {@link ChatResponse}, through the same
 * reading as a stream (see {@link GoogleStreamAssembler}), so call and stream agree on text, tool
 * calls, their ids and thought signatures. A body without a finish reason is taken as finished;
 * an `error` in the body throws its {@link ChatModelError}, a body of another shape than the
 * API's a non-retryable one.
 */
export function fromGoogleResponse(
  body: unknown,
  errors: ProviderErrors = new ProviderErrors('google'),
): ChatResponse {
  const assembler = new GoogleStreamAssembler(errors);
  return aggregateChatResponses([...assembler.response(body), ...assembler.finishAll()]);
}
