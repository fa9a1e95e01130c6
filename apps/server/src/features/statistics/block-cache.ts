/**
 * Decoded blocks (block-format.ts decodeBlock), each under the version it was written with: a block
 * whose span has ended (every hour of a day's chart but the current one) is read from the database and
 * decoded once, not once per chart. A read first asks the database for the blocks' versions, so a block another
 * node rewrote is read again. Bounded by bytes; the least recently used go first. On ClickHouse the
 * blocks are its rows (clickhouse/block-versions.ts), a breakdown's with their names.
 */
export class BlockCache {
  private readonly entries = new Map<string, { version: number; block: NamedBlock; bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The values stored under `key` if they are of `version`. */
  get(key: string, version: number): Float64Array | undefined {
    return this.getNamed(key, version)?.values;
  }

  /** The values and names stored under `key` if they are of `version`. */
  getNamed(key: string, version: number): NamedBlock | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.version !== version) {
      this.bytes -= e.bytes;
      return undefined;
    }
    this.entries.set(key, e); // now the most recently used
    return e.block;
  }

  set(key: string, version: number, values: Float64Array, names?: readonly string[]): void {
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
    // A string: its UTF-16 code units and about 40 bytes of its own.
    const bytes = values.byteLength + (names?.reduce((n, s) => n + 40 + 2 * s.length, 0) ?? 0);
    this.entries.set(key, { version, block: { values, names: names ?? [] }, bytes });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}

/** A cached block: its values, and the names of its rows when they have one (a breakdown's). */
export interface NamedBlock {
  values: Float64Array;
  names: readonly string[];
}
