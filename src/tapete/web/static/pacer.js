// The pace of the table: every message the server sends is shown, in order, and a completed trick
// stays on the felt long enough to be read. `tapete.pace` in localStorage scales every wait (tests).

/** How long a completed trick stays (ms): longer for the last trick of a hand. */
export const HOLD = 1300;
export const LAST_HOLD = 2600;
/** How long the trick takes to slide to its winner. */
export const SLIDE = 450;

export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function paceFactor() {
  const f = Number(localStorage.getItem("tapete.pace"));
  return Number.isFinite(f) && f > 0 ? f : 1;
}

/** A queue worked through one message at a time; `pause()` holds it (e.g. while a summary is read). */
export class Queue {
  constructor(handle) { this.handle = handle; this.items = []; this.running = false; this.paused = false; this.cut = null; }
  push(item) { this.items.push(item); this.run(); }
  has(pred) { return this.items.some(pred); }
  pause() { this.paused = true; }
  resume() { this.paused = false; this.run(); }
  /** Wait `ms` (scaled by the pace), or less when `skip()` is called. */
  wait(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.cut = null; resolve(); }, ms * paceFactor());
      this.cut = () => { clearTimeout(timer); this.cut = null; resolve(); };
    });
  }
  skip() { if (this.cut) this.cut(); }
  async run() {
    if (this.running) return;
    this.running = true;
    try {
      while (this.items.length && !this.paused) {
        const item = this.items.shift();
        try { await this.handle(item); } catch (err) { setTimeout(() => { throw err; }); }
      }
    } finally { this.running = false; }
  }
}
