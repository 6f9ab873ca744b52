import { InvalidArgumentError, MemoryError } from '../errors/index.js';
import { formatByteSize, type Message, toolResultPartBytes } from '../messages/index.js';

/**
 * Default `maxMediaBytes` of the chat memory stores: 16 MiB of inline media (images, audio,
 * files of tool results, as base64) per message.
 */
export const DEFAULT_MAX_STORED_MEDIA_BYTES = 16 * 1024 * 1024;

/**
 * Throws a `MemoryError` before anything is written when a message holds more inline media than
 * `maxBytes`: the whole append or save is refused, never stored in part or with parts dropped.
 * The error names the message, the tool, the parts' types and sizes and the limit, never the
 * bytes. (A tool that returns large media should return an `https:` URL instead: only its
 * address is stored.)
 */
export function assertStorableMedia(
  messages: readonly Message[],
  backend: string,
  conversationId: string,
  maxBytes: number,
): void {
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.role !== 'tool') continue;
    let bytes = 0;
    const held: string[] = [];
    for (const response of message.responses) {
      for (const part of response.content ?? []) {
        if (part.type === 'text' || part.type === 'resource-link') continue;
        const size = toolResultPartBytes(part);
        bytes += size;
        held.push(`${part.type} ${part.mediaType} ${formatByteSize(size)} from '${response.name}'`);
      }
    }
    if (bytes <= maxBytes) continue;
    throw new MemoryError({
      backend,
      conversationId,
      message: `${backend} chat memory: messages[${index}] holds ${formatByteSize(bytes)} of tool result media (${held.join(', ')}), over the store's limit of ${formatByteSize(maxBytes)} per message (maxMediaBytes); nothing was written`,
    });
  }
}

/** Checks a `maxMediaBytes` option; returns the limit. */
export function mediaLimitOption(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_STORED_MEDIA_BYTES;
  if (typeof value !== 'number' || !(value > 0)) {
    throw new InvalidArgumentError('maxMediaBytes must be a positive number or Infinity');
  }
  return value;
}
