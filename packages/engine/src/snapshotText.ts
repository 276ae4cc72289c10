// A snapshot's JSON text in pieces. The text of a large state passes V8's longest string (about
// 537 million characters; a million applied business ids take some 475 million): whatever
// needs all of it (the state hash) takes it a piece at a time instead of as one string.

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
