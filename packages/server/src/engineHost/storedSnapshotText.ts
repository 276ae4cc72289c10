// A snapshot's text as it is stored: the engine's JSON text in its pieces (`jsonTextPieces`, an
// array element a piece), a line each. JSON allows a newline between any two tokens and
// `JSON.stringify` writes none inside a value, so the stored text is still JSON (a `jq` reads
// it), and yet it is never one string: the text grows with the exchange's history (a deposit's
// applied business id takes some 300 characters), and past V8's longest string (about 537
// million characters) a history's snapshot could be neither written nor read. The state hash
// is that of the pieces joined without their newlines, as `engine.stateHash()` takes it. A
// text stored on one line (before lines) reads as whole JSON.
import {
  type EngineSnapshot,
  JsonTextPiecesReader,
  jsonTextPieces,
  StringHasher,
} from '@lattice/engine';
import { sliceClock } from './slicedWork.js';

const newline = 0x0a;
/** Bytes of array elements decoded and parsed at once (all the lines that end within them). */
const bytesPerRun = 1024 * 1024;

/** A snapshot's stored text in UTF-8, and the engine's state hash of it. */
export interface StoredSnapshotText {
  readonly bytes: Buffer;
  readonly stateHash: string;
}

/**
 * The stored text of a snapshot (an engine's, or any plain object whose large values are
 * arrays) and its state hash, with the event loop let in between every few hundred pieces.
 * `snapshot` must not change meanwhile: the engine's snapshot is built from copies, never from
 * its live objects.
 */
export async function storedSnapshotText(snapshot: object): Promise<StoredSnapshotText> {
  const piecesPerCheck = 500;
  // Pieces are encoded a batch at a time: one call per piece would cost more than the text.
  const charsPerBatch = 1024 * 1024;
  const due = sliceClock();
  const hasher = new StringHasher();
  const encoded: Buffer[] = [];
  let batch: string[] = [];
  let batchChars = 0;
  let pieces = 0;
  const encodeBatch = () => {
    const lines = batch.join('\n');
    encoded.push(Buffer.from(encoded.length === 0 ? lines : `\n${lines}`, 'utf8'));
    batch = [];
    batchChars = 0;
  };
  for (const piece of jsonTextPieces(snapshot)) {
    hasher.update(piece);
    batchChars += piece.length;
    batch.push(piece);
    if (++pieces % piecesPerCheck === 0) {
      const turn = due();
      if (turn) await turn;
    }
    if (batchChars >= charsPerBatch) encodeBatch();
  }
  if (batch.length > 0) encodeBatch();
  return { bytes: Buffer.concat(encoded), stateHash: hasher.digest() };
}

/**
 * The snapshot a stored text holds, and the state hash of the text: its keys a line at a time,
 * an array's elements a run of lines at a time (about a megabyte, one parse: a parse per line
 * took 365 ms at 100,000 resting orders, against 265 ms for the text as one string). Throws on
 * a text that is not one `storedSnapshotText` writes (or whole JSON on one line); its shape is
 * then checked by `Engine.restore`, as that of any parsed JSON.
 */
export function readStoredSnapshotText(bytes: Uint8Array): {
  snapshot: EngineSnapshot;
  stateHash: string;
} {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hasher = new StringHasher();
  let end = text.indexOf(newline);
  if (end === -1) {
    const whole = text.toString('utf8');
    return { snapshot: JSON.parse(whole), stateHash: hasher.update(whole).digest() };
  }
  const reader = new JsonTextPiecesReader();
  for (let start = 0; start <= text.length; start = end + 1) {
    end = reader.inArray ? elementsEnd(text, start) : -1;
    if (end > start) {
      const run = text.toString('utf8', start, end);
      hashLines(hasher, run);
      reader.pushElements(run);
      continue;
    }
    end = text.indexOf(newline, start);
    if (end === -1) end = text.length;
    const piece = text.toString('utf8', start, end);
    hasher.update(piece);
    reader.push(piece);
  }
  return { snapshot: reader.finish() as unknown as EngineSnapshot, stateHash: hasher.digest() };
}

/**
 * Where a run of an array's element lines from `start` ends (at a newline, or at the text's
 * end): before the array's closing line, within `bytesPerRun` bytes, or after the first line if
 * that one is longer. `start` itself when the closing line comes first.
 * NOTE: an element's line never starts with `]`, so the first line that does closes the array.
 */
function elementsEnd(text: Buffer, start: number): number {
  if (text[start] === 0x5d) return start;
  // Only the run's bytes are searched: a search to the array's end for every run would read a
  // long array's text again for each of its megabytes.
  const run = text.subarray(start, start + bytesPerRun);
  const closing = run.indexOf('\n]');
  if (closing !== -1) return start + closing;
  if (start + run.length === text.length) return text.length;
  const lastNewline = run.lastIndexOf(newline);
  if (lastNewline > 0) return start + lastNewline;
  const firstNewline = text.indexOf(newline, start);
  return firstNewline === -1 ? text.length : firstNewline;
}

/** Hashes `lines` without their newlines, as the pieces they are. */
function hashLines(hasher: StringHasher, lines: string): void {
  for (let start = 0; ; ) {
    const end = lines.indexOf('\n', start);
    if (end === -1) {
      hasher.update(lines, start, lines.length);
      return;
    }
    hasher.update(lines, start, end);
    start = end + 1;
  }
}
