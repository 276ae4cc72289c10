// A snapshot's JSON text in pieces. The text grows with the exchange's history (a deposit's
// applied business id takes some 300 characters) and can pass V8's longest string (about 537
// million characters): whatever needs all of it (the state hash, the host's stored snapshot)
// takes it a piece at a time instead of as one string.

/**
 * `JSON.stringify(value)` in pieces, for a plain object whose large values are arrays (an
 * engine snapshot): each array element is a piece of its own. Joined, the pieces are the text
 * `JSON.stringify` gives: keys in their order, a key whose value serialises to nothing left out,
 * such an element written `null`.
 */
export function* jsonTextPieces(value: object): Generator<string> {
  let first = true;
  for (const [key, inner] of Object.entries(value)) {
    if (Array.isArray(inner)) {
      yield `${first ? '{' : ','}${JSON.stringify(key)}:[`;
      for (let i = 0; i < inner.length; i++) {
        const text = JSON.stringify(inner[i]) ?? 'null';
        yield i === 0 ? text : `,${text}`;
      }
      yield ']';
    } else {
      const text = JSON.stringify(inner);
      if (text === undefined) continue;
      yield `${first ? '{' : ','}${JSON.stringify(key)}:${text}`;
    }
    first = false;
  }
  yield first ? '{}' : '}';
}

/**
 * The inverse of `jsonTextPieces`: the object is rebuilt from its pieces one at a time, in the
 * order given, so that a text too long for one string is never whole (a stored snapshot keeps
 * its pieces a line each). It accepts exactly the pieces `jsonTextPieces` writes, of an object
 * that has a key at least (`{}` is one piece, and whole JSON text: parse it as such); anything
 * else throws a SyntaxError, the first piece out of place or `finish` before the closing brace.
 */
export class JsonTextPiecesReader {
  private readonly entries: [string, unknown][] = [];
  /** The array whose elements the pieces are, between its key's piece and its `]`. */
  private array: unknown[] | null = null;
  private ended = false;

  push(piece: string): void {
    if (this.ended) throw new SyntaxError('a piece after the closing brace');
    const array = this.array;
    if (array !== null) {
      if (piece === ']') this.array = null;
      else if (array.length === 0) array.push(JSON.parse(piece));
      else if (piece.startsWith(',')) array.push(JSON.parse(piece.slice(1)));
      else throw new SyntaxError('an array element without its comma');
      return;
    }
    if (piece === '}' && this.entries.length > 0) {
      this.ended = true;
      return;
    }
    if (!piece.startsWith(this.entries.length === 0 ? '{' : ',')) {
      throw new SyntaxError(`a key's piece that starts with ${JSON.stringify(piece.slice(0, 1))}`);
    }
    // NOTE: a value written whole never ends in `[`, so such a piece opens an array, whose
    // elements follow; either way the key and its value are read as an object of that one key.
    const opens = piece.endsWith('[');
    const field: unknown = JSON.parse(`{${piece.slice(1)}${opens ? ']}' : '}'}`);
    const entries = Object.entries(field as object);
    const entry = entries[0];
    if (entries.length !== 1 || entry === undefined) {
      throw new SyntaxError(`a key's piece with ${entries.length} keys`);
    }
    if (opens) this.array = entry[1] as unknown[];
    this.entries.push(entry);
  }

  /** Whether the pieces now due are an array's elements (or its closing `]`). */
  get inArray(): boolean {
    return this.array !== null;
  }

  /**
   * Consecutive element pieces of the array being read, at once: what `push` of each would
   * read, with JSON whitespace (a stored snapshot's newlines) allowed between them. One parse
   * for many elements instead of one each.
   */
  pushElements(pieces: string): void {
    const array = this.array;
    if (array === null) throw new SyntaxError('array elements outside an array');
    if (array.length > 0 && !pieces.startsWith(',')) {
      throw new SyntaxError('an array element without its comma');
    }
    const elements: unknown[] = JSON.parse(`[${array.length > 0 ? pieces.slice(1) : pieces}]`);
    if (elements.length === 0) throw new SyntaxError('no array element');
    for (const element of elements) array.push(element);
  }

  /** The object read, once its closing brace has come. */
  finish(): Record<string, unknown> {
    if (!this.ended) throw new SyntaxError('the pieces end before the closing brace');
    // NOTE: fromEntries defines each key as JSON.parse does, `__proto__` an own key like any.
    return Object.fromEntries(this.entries);
  }
}
