// States as changes (docs/protocol.md, `deltas` in the hello): after a whole view, the server sends
// only what changed at each version. `ViewDeltas` rebuilds every whole view as the message
// arrives, so the rest of the table only ever sees whole states.

/** The view `before` with a delta applied: `changed` keys replaced, `appended` items added to the
 * end of their lists, `gone` keys removed. `before` is left as it was. */
export function applyDelta(before, changed, appended, gone) {
  const out = { ...before };
  for (const key of gone || []) delete out[key];
  Object.assign(out, changed || {});
  for (const [key, items] of Object.entries(appended || {})) {
    if (!Array.isArray(out[key])) throw new Error(`cannot append to ${key}: not a list`);
    out[key] = out[key].concat(items);
  }
  return out;
}

/** Whole states from a stream of whole and delta `state` messages of one socket. */
export class ViewDeltas {
  /** `resync()` asks the server for the whole view (a `sync`) when a delta cannot be applied. */
  constructor(resync) { this.resync = resync; this.reset(); }

  /** A new socket: nothing is held until its first whole view. */
  reset() { this.version = null; this.view = null; this.waiting = false; }

  /** The whole state `m` stands for, or null when it cannot be rebuilt (the whole view is asked
   * for once, and deltas are dropped until it comes). */
  accept(m) {
    if (m.view !== undefined) {
      this.version = m.version; this.view = m.view; this.waiting = false;
      return m;
    }
    if (this.view === null || m.version !== this.version + 1) {
      if (!this.waiting) { this.waiting = true; this.resync(); }
      return null;
    }
    const { changed, appended, gone, ...rest } = m;
    this.view = applyDelta(this.view, changed, appended, gone);
    this.version = m.version;
    return { ...rest, view: this.view };
  }
}
