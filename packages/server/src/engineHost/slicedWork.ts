import { StringHasher } from '@lattice/engine';

/**
 * Long work on the event loop cut into slices of about this many milliseconds: between two
 * slices pending requests are read and the sequencer applies and commits their commands.
 */
const sliceMs = 4;

/** Lets the event loop run once everything already pending (I/O, timers) has had its turn. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Resolves to a function that, called inside a loop, yields when the slice is used up. */
function sliceClock(): () => Promise<void> | undefined {
  let started = performance.now();
  return () => {
    if (performance.now() - started < sliceMs) return undefined;
    return nextTurn().then(() => {
      started = performance.now();
    });
  };
}

/**
 * `JSON.stringify(value)` for a plain object whose large values are arrays (an engine
 * snapshot), computed a few thousand elements at a time. The text is the same as
 * `JSON.stringify` gives: keys in their order, a key whose value serialises to nothing left out,
 * such an element written `null`. `value` must not change meanwhile: the engine's snapshot is
 * built from copies, never from its live objects.
 */
export async function stringifyInSlices(value: Record<string, unknown>): Promise<string> {
  const elementsPerCheck = 500;
  const due = sliceClock();
  const parts: string[] = ['{'];
  let first = true;
  for (const [key, inner] of Object.entries(value)) {
    let text: string | undefined;
    if (Array.isArray(inner)) {
      const elements: string[] = [];
      for (let i = 0; i < inner.length; i++) {
        elements.push(JSON.stringify(inner[i]) ?? 'null');
        if (i % elementsPerCheck === 0) {
          const turn = due();
          if (turn) await turn;
        }
      }
      text = `[${elements.join(',')}]`;
    } else {
      text = JSON.stringify(inner);
    }
    if (text === undefined) continue;
    parts.push(first ? '' : ',', JSON.stringify(key), ':', text);
    first = false;
    const turn = due();
    if (turn) await turn;
  }
  parts.push('}');
  return parts.join('');
}

/** The state hash of `text` (see `stateHashOfSnapshotText`), a slice at a time. */
export async function hashInSlices(text: string): Promise<string> {
  const charsPerCheck = 256 * 1024;
  const due = sliceClock();
  const hasher = new StringHasher();
  for (let start = 0; start < text.length; start += charsPerCheck) {
    hasher.update(text, start, Math.min(text.length, start + charsPerCheck));
    const turn = due();
    if (turn) await turn;
  }
  return hasher.digest();
}

/**
 * `text` as UTF-8, in pieces of about a million characters encoded a slice at a time (never
 * splitting a surrogate pair), so that they can be moved to a worker without one long pause.
 */
export async function encodeInSlices(text: string): Promise<Uint8Array[]> {
  const charsPerPiece = 1024 * 1024;
  const encoder = new TextEncoder();
  const due = sliceClock();
  const pieces: Uint8Array[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + charsPerPiece);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    pieces.push(encoder.encode(text.slice(start, end)));
    start = end;
    const turn = due();
    if (turn) await turn;
  }
  return pieces;
}

/** The text of UTF-8 `pieces` made by `encodeInSlices`, decoded a slice at a time. */
export async function decodeInSlices(pieces: readonly Uint8Array[]): Promise<string> {
  const decoder = new TextDecoder();
  const due = sliceClock();
  const parts: string[] = [];
  for (const piece of pieces) {
    parts.push(decoder.decode(piece));
    const turn = due();
    if (turn) await turn;
  }
  return parts.join('');
}
