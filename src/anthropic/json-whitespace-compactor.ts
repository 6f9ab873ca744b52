/**
 * Drops the whitespace between the tokens of JSON text that arrives in pieces, keeping every
 * character inside strings: `{"city": "Paris"}` fed as `{"ci`, `ty": "Pa`, `ris"}` comes out as
 * `{"ci`, `ty":"Pa`, `ris"}`. The pieces then add up to what `JSON.stringify` writes for the same
 * value whenever the text spells numbers and strings the way `JSON.stringify` does (models do),
 * which is how the Anthropic adapter writes a finished call's arguments. Text that is not JSON
 * passes with its whitespace outside quotes removed; nothing is ever rejected here.
 */
export class JsonWhitespaceCompactor {
  #inString = false;
  #escaped = false;

  /** The next piece without its insignificant whitespace (empty when it was all whitespace). */
  push(piece: string): string {
    let kept = '';
    let from = 0;
    for (let at = 0; at < piece.length; at++) {
      const char = piece.charCodeAt(at);
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (char === BACKSLASH) this.#escaped = true;
        else if (char === QUOTE) this.#inString = false;
      } else if (char === QUOTE) {
        this.#inString = true;
      } else if (char === SPACE || char === TAB || char === LINE_FEED || char === RETURN) {
        kept += piece.slice(from, at);
        from = at + 1;
      }
    }
    return from === 0 ? piece : kept + piece.slice(from);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const RETURN = 0x0d;
