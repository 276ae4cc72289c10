/**
 * Runs `flush` soon after something changed, but not more often than every `intervalMs`: many
 * commits in a burst share one computation of each update, and one frame per subscriber.
 */
export class PushScheduler {
  private timer: NodeJS.Timeout | null = null;
  private lastRunMs = 0;
  private stopped = false;

  constructor(
    private readonly flush: () => void,
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  request(): void {
    if (this.timer !== null || this.stopped) return;
    const wait = Math.max(0, this.lastRunMs + this.intervalMs - this.now());
    this.timer = setTimeout(() => this.run(), wait);
  }

  /** Runs a pending flush now (shutdown, tests). */
  runNow(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.run();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private run(): void {
    this.timer = null;
    this.lastRunMs = this.now();
    this.flush();
  }
}
