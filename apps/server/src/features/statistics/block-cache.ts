/**
 * Decoded blocks (block-format.ts decodeBlock), each under the version it was written with: a block
 * whose span has ended (every hour of a day's chart but the current one) is read from the database and
 * decoded once, not once per chart. A read first asks the database for the blocks' versions, so a block another
 * node rewrote is read again. Bounded by bytes; the least recently used go first.
 */
export class BlockCache {
  private readonly entries = new Map<string, { version: number; values: Float64Array }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The values stored under `key` if they are of `version`. */
  get(key: string, version: number): Float64Array | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.version !== version) {
      this.bytes -= e.values.byteLength;
      return undefined;
    }
    this.entries.set(key, e); // now the most recently used
    return e.values;
  }

  set(key: string, version: number, values: Float64Array): void {
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.values.byteLength;
      this.entries.delete(key);
    }
    this.entries.set(key, { version, values });
    this.bytes += values.byteLength;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.values.byteLength;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
