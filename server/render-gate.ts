/**
 * Admission control for page and data renders (decision 0068): at most `limit` GET requests
 * are inside React Router at once; the others wait their turn, first come first served.
 *
 * Rendering is CPU work on one thread. Started all at once, fifty renders interleave at every
 * database await, each keeps its half-built page alive until the last one finishes, the garbage
 * collector promotes all of it to the old generation, and every visitor waits for everyone. Taken
 * a few at a time, the same work finishes sooner for each visitor and leaves less to collect.
 *
 * A slot is held until the response has been handed to the socket (or the visitor left), and
 * at most `maxHoldMs`: a render stuck on a slow query or a download to a slow reader gives its
 * slot back and carries on outside the gate, so nothing can hold the site shut. Form posts are
 * never gated: the sign-in brake (decision 0015) sleeps inside them.
 */
export class RenderGate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly limit: number,
    private readonly maxHoldMs: number,
  ) {}

  /** Waits for a slot; resolves with the function that gives it back (calling it twice is fine). */
  async enter(): Promise<() => void> {
    if (this.active < this.limit) this.active++;
    // A slot given back while someone waits passes to them directly, never to a newcomer.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
    const timer = setTimeout(release, this.maxHoldMs);
    timer.unref();
    return release;
  }

  /** Renders in progress and renders waiting (for tests and the health of the instance). */
  get load() {
    return { active: this.active, waiting: this.waiting.length };
  }
}
