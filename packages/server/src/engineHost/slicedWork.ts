/**
 * Long work on the event loop cut into slices of about this many milliseconds: between two
 * slices pending requests are read and the sequencer applies and commits their commands.
 */
const sliceMs = 4;

/** Lets the event loop run once everything already pending (I/O, timers) has had its turn. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A clock for a long loop: called inside it, it returns a promise to wait for once the slice is
 * used up (the event loop runs meanwhile), and undefined until then.
 */
export function sliceClock(): () => Promise<void> | undefined {
  let started = performance.now();
  return () => {
    if (performance.now() - started < sliceMs) return undefined;
    return nextTurn().then(() => {
      started = performance.now();
    });
  };
}
