/** Transaction status codes of SPEC.md §4 and the colour each shows in. */

export const transactionStatuses = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] as const;

export type Tone = 'green' | 'red' | 'main' | 'grey';

const successful = new Set([3, 7]);
const failed = new Set([4, 9, 12, 13]);
const finished = new Set([...successful, ...failed]);

export function statusTone(status: number): Tone {
  if (successful.has(status)) return 'green';
  if (failed.has(status)) return 'red';
  if (status === 8) return 'grey';
  return 'main';
}

/** Whether a record can still change (polled while it can). */
export function isFinished(status: number): boolean {
  return finished.has(status);
}

export const statusKey = (status: number) => `wallet.status.s${status}`;
