import { jsonTextPieces, StringHasher } from '@lattice/engine';

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
 * snapshot), in the engine's pieces (`jsonTextPieces`: an element each), the event loop let in
 * between every few hundred. The text is the same as `JSON.stringify` gives. `value` must not
 * change meanwhile: the engine's snapshot is built from copies, never from its live objects.
 */
export async function stringifyInSlices(value: object): Promise<string> {
  const piecesPerCheck = 500;
  const due = sliceClock();
  const parts: string[] = [];
  for (const piece of jsonTextPieces(value)) {
    if (parts.push(piece) % piecesPerCheck === 0) {
      const turn = due();
      if (turn) await turn;
    }
  }
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
