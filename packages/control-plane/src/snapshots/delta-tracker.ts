/**
 * What the bucket holds of each namespace, as far as this control plane knows: the revision of its
 * hydration (the base a delta may start from) and which flags changed after it, so a delta can name
 * every change since that base, this instance's and the others'. Where the changes since the base are
 * not known (a version read whole from the database), the next publish must be a hydration.
 */
export interface Track {
  /** The newest hydration known to be in the bucket; -1 when none is. */
  base: number;
  /** Flags changed after `base`, with the revision of their latest change. */
  changed: Map<string, number>;
  /** The changes after `base` are known only once `base` reaches this revision. */
  unknownUntil: number;
  /** The newest revision this instance published. */
  published: number;
  /** Bytes of deltas published since the last hydration, and that hydration's bytes: compaction weighs one against the other. */
  deltaBytes: number;
  hydrationBytes: number;
  /** When the oldest change not yet in a hydration was made, epoch ms; undefined when there is none. */
  changedSince: number | undefined;
}

export class DeltaTracker {
  private readonly tracks = new Map<string, Track>();

  constructor(private readonly now: () => number = Date.now) {}

  get(namespaceKey: string): Track {
    let track = this.tracks.get(namespaceKey);
    if (track === undefined) {
      track = { base: -1, changed: new Map(), unknownUntil: 0, published: -1, deltaBytes: 0, hydrationBytes: 0, changedSince: undefined };
      this.tracks.set(namespaceKey, track);
    }
    return track;
  }

  /** Flags changed at `revision` (a write here, or a delta read from the bucket). */
  wrote(namespaceKey: string, revision: number, keys: Iterable<string>): void {
    const track = this.get(namespaceKey);
    for (const key of keys) track.changed.set(key, Math.max(revision, track.changed.get(key) ?? -1));
    track.changedSince ??= this.now();
  }

  /** The bucket holds a hydration at `revision`. */
  hydrated(namespaceKey: string, revision: number, bytes?: number): void {
    const track = this.get(namespaceKey);
    if (bytes !== undefined) {
      track.hydrationBytes = bytes;
      track.deltaBytes = 0;
    }
    if (revision <= track.base) return;
    track.base = revision;
    for (const [key, at] of track.changed) if (at <= revision) track.changed.delete(key);
    if (track.changed.size === 0) track.changedSince = undefined;
  }

  /** This instance's version of the namespace at `revision` was read whole: what changed since the base is not known. */
  unknownUpTo(namespaceKey: string, revision: number): void {
    const track = this.get(namespaceKey);
    track.unknownUntil = Math.max(track.unknownUntil, revision);
  }

  /** Whether a delta from `base` can name every change up to now. */
  knows(track: Track): boolean {
    return track.base >= 0 && track.base >= track.unknownUntil;
  }

  /** Namespaces with changes not yet in a hydration for at least `ageMs`. */
  stale(ageMs: number): string[] {
    const cutoff = this.now() - ageMs;
    return [...this.tracks].filter(([, t]) => t.changedSince !== undefined && t.changedSince <= cutoff).map(([key]) => key);
  }

  forget(namespaceKey: string): void {
    this.tracks.delete(namespaceKey);
  }
}
