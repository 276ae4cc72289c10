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
