import { randomUUID } from 'node:crypto';
import {
  closeSync,
  constants,
  fdatasync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  write,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

/** Journal folders open in this process (a second server of the same process takes another). */
const OPEN_HERE = new Set<string>();
/** A second node on the same machine takes `<dir>-2`, and so on. */
const MAX_SLOTS = 16;
const SEGMENT = /^seg-(\d{12})\.jnl$/;
const segmentName = (n: number) => `seg-${String(n).padStart(12, '0')}.jnl`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes `dir`'s lock (a file with this process's id) unless a live process, or this one, holds it. */
function tryLock(dir: string): boolean {
  if (OPEN_HERE.has(dir)) return false;
  const lock = join(dir, 'lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      OPEN_HERE.add(dir);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(lock, 'utf8'));
      // A process killed (SIGKILL) leaves its lock behind: taken over once its process is gone.
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) return false;
      rmSync(lock, { force: true });
    }
  }
  return false;
}

interface Batch {
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}
function batch(): Batch {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A batch nobody waits for (no ingest since) must not be an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** Lines gathered for one segment, and how many of their bytes are in its file. */
interface Chunk {
  segment: number;
  text: string;
  written?: number;
}

/** Writes the chunk's text, counting in `chunk.written` what reached the file (a full disk may take
 *  part of it). */
const writeAll = (fd: number, chunk: Chunk) =>
  new Promise<void>((resolve, reject) => {
    const buf = Buffer.from(chunk.text, 'utf8');
    chunk.written = 0;
    const next = (offset: number) =>
      write(fd, buf, offset, buf.length - offset, null, (err, n) => {
        if (err) return reject(err);
        chunk.written = offset + n;
        if (offset + n < buf.length) next(offset + n);
        else resolve();
      });
    next(0);
  });

/** What of a chunk a failed write did not put in its file, from its first line not written whole; led
 *  by a newline when a torn line precedes it in the file (read() skips that line). */
function unwritten(chunk: Chunk): string {
  const done = chunk.written ?? 0;
  if (done === 0) return chunk.text;
  const buf = Buffer.from(chunk.text, 'utf8');
  const lineStart = buf.lastIndexOf(0x0a, done - 1) + 1;
  const rest = buf.subarray(lineStart).toString('utf8');
  return rest === '' ? '' : done > lineStart ? `\n${rest}` : rest;
}
/** The pause before a journal write that failed is tried again. */
const RETRY_MS = 100;
const syncData = (fd: number) =>
  new Promise<void>((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())));

/** A segment file on disk: its number, path and when it was last written (ms). */
export interface Segment {
  n: number;
  path: string;
  writtenAt: number;
}

/**
 * The statistics journal of one node: an append-only log, in numbered segment files, of what the ingest
 * accepted, written with group commit (the lines of an idle journal gathered for `commitMs`, those that
 * come during a write gathered until it ends; then one write and one fdatasync for all of them); an ingest answers 202 only once its lines are on disk (`sync`). Each flush of the
 * statistics closes the segment (`rotate`) and stores, in its own transaction, the number of the last
 * segment it covers (the mark, table stats_journal); at start the segments past the mark are replayed.
 * Stored segments are kept while their reports could still be sent again (the replay window of
 * seen-reports.ts), so a restarted node still knows which (key, session, seq) it counted.
 */
export class StatsJournal {
  /** The file of the segment last written, open for appending. */
  private fd: number | undefined;
  private fdSegment = 0;
  /** The segment new lines go to; its file is made at its first line. */
  private current: number;
  /** Lines not yet written, by segment (a flush may close a segment while its lines still wait). */
  private chunks: Chunk[] = [];
  private pending: Batch | undefined;
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private broken: unknown;
  private closed = false;
  /** Segments on disk: found at start or written since, not yet deleted. */
  private readonly known = new Map<number, Segment>();
  private applied = 0;

  private constructor(
    readonly dir: string,
    readonly id: string,
    found: Segment[],
    private readonly commitMs: number,
    private readonly keepMs: number,
  ) {
    for (const s of found) this.known.set(s.n, s);
    this.current = (found.at(-1)?.n ?? 0) + 1;
  }

  /**
   * Opens the journal in `base` (or `<base>-2`, ... when another live process or server holds it):
   * makes the folder, takes its lock, reads or makes its id.
   */
  static open(base: string, opts: { commitMs: number; keepMs: number }): StatsJournal {
    for (let slot = 1; slot <= MAX_SLOTS; slot++) {
      const dir = slot === 1 ? base : `${base}-${slot}`;
      mkdirSync(dir, { recursive: true });
      if (!tryLock(dir)) continue;
      const idFile = join(dir, 'id');
      let id: string;
      try {
        id = readFileSync(idFile, 'utf8').trim();
      } catch {
        id = randomUUID();
        writeFileSync(idFile, id);
      }
      const found: Segment[] = [];
      for (const name of readdirSync(dir)) {
        const m = SEGMENT.exec(name);
        if (!m) continue;
        const path = join(dir, name);
        found.push({ n: Number(m[1]), path, writtenAt: statSync(path).mtimeMs });
      }
      found.sort((a, b) => a.n - b.n);
      return new StatsJournal(dir, id, found, opts.commitMs, opts.keepMs);
    }
    throw new Error(`every statistics journal folder ${base}, ${base}-2 … -${MAX_SLOTS} is in use`);
  }

  /** The segments on disk, oldest first. */
  segments(): Segment[] {
    return [...this.known.values()].sort((a, b) => a.n - b.n);
  }

  /** The records of a segment, in order; a line cut short by a crash (the last one) is skipped. */
  static read(path: string): unknown[] {
    const out: unknown[] = [];
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line === '') continue;
      try {
        out.push(JSON.parse(line));
      } catch {
        // A torn write: its lines were never answered 202.
      }
    }
    return out;
  }

  /** The last write's failure, while no later one succeeded (the ingest answers 503 meanwhile). */
  get failure(): unknown {
    return this.broken;
  }

  /** Bytes of lines not yet on disk (grows while the journal's disk is full). */
  get backlogBytes(): number {
    let n = 0;
    for (const c of this.chunks) n += c.text.length;
    return n;
  }

  /** Adds one record (a JSON text without newlines) to the next group commit. */
  append(line: string): void {
    if (this.closed) return;
    const last = this.chunks.at(-1);
    if (last && last.segment === this.current) last.text += `${line}\n`;
    else this.chunks.push({ segment: this.current, text: `${line}\n` });
    this.pending ??= batch();
    if (this.timer === undefined && this.inFlight === undefined) this.schedule();
  }

  /** Resolves once everything appended so far is on disk; rejects if its write failed. */
  sync(): Promise<void> {
    return this.pending?.promise ?? this.inFlight ?? Promise.resolve();
  }

  /** Closes the segment being written: everything appended so far is in segments up to the answer. */
  rotate(): number {
    const used = this.known.has(this.current) || this.chunks.some((c) => c.segment === this.current);
    if (!used) return this.current - 1;
    return this.current++;
  }

  /** The segments up to `n` are stored: they are deleted once past the replay window. */
  markApplied(n: number): void {
    this.applied = Math.max(this.applied, n);
    const before = Date.now() - this.keepMs;
    for (const [k, s] of this.known) {
      if (k > this.applied || k >= this.current || s.writtenAt > before) continue;
      if (this.fd !== undefined && this.fdSegment === k) continue;
      rmSync(s.path, { force: true });
      this.known.delete(k);
    }
  }

  private schedule(ms = this.commitMs): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.commit();
    }, ms);
  }

  /** Writes every gathered line to its segment's file, then one fdatasync; answers the batch. */
  private async commit(): Promise<void> {
    const chunks = this.chunks;
    const done = this.pending;
    this.chunks = [];
    this.pending = undefined;
    const run = this.writeChunks(chunks);
    run.catch(() => undefined);
    this.inFlight = run;
    try {
      await run;
      this.broken = undefined;
      done?.resolve();
    } catch (err) {
      this.broken = err;
      // What was written of the failed batch may end in a torn line: later lines go to a new segment.
      this.closeFile();
      this.current = Math.max(this.current, (chunks.at(-1)?.segment ?? 0) + 1);
      if (!this.closed) this.requeue(chunks);
      done?.reject(err);
    } finally {
      this.inFlight = undefined;
    }
    if (this.chunks.length > 0 && this.timer === undefined) {
      // Lines that came during this write and its fdatasync are already a group: they go at once.
      // Waiting `commitMs` again would cap a node at its connections per (commitMs + fdatasync), about
      // 12,500 reports a second from 50 connections here. Only an idle journal's first line waits.
      if (this.closed) await this.commit();
      else if (this.broken === undefined) void this.commit();
      else this.schedule(RETRY_MS);
    }
  }

  /**
   * Keeps the lines a failed write did not put on disk, in their own segments, for the next write. Their
   * reports were answered 503 but are counted in memory: a resend the replay memory finds counted waits
   * for them (a 202 only once they are on disk), and kept in their segments they are replayed only if
   * the flush that took them was not stored. Lines of segments already stored are dropped: the database
   * has them.
   */
  private requeue(chunks: Chunk[]): void {
    const kept: Chunk[] = [];
    for (const c of chunks) {
      if (c.segment <= this.applied) continue;
      const text = unwritten(c);
      if (text !== '') kept.push({ segment: c.segment, text });
    }
    if (kept.length === 0) return;
    this.chunks = [...kept, ...this.chunks];
    this.pending ??= batch();
  }

  private async writeChunks(chunks: Chunk[]): Promise<void> {
    for (const chunk of chunks) {
      const { segment } = chunk;
      if (this.fd !== undefined && this.fdSegment !== segment) {
        // A segment is closed only once its lines are on disk.
        await syncData(this.fd);
        this.closeFile();
      }
      if (this.fd === undefined) {
        const path = join(this.dir, segmentName(segment));
        this.fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND);
        this.fdSegment = segment;
        if (!this.known.has(segment)) this.known.set(segment, { n: segment, path, writtenAt: Date.now() });
      }
      await writeAll(this.fd, chunk);
    }
    if (this.fd !== undefined) await syncData(this.fd);
    const s = this.known.get(this.fdSegment);
    if (s) s.writtenAt = Date.now();
  }

  private closeFile(): void {
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // Closing a file whose write failed may fail again: it is dropped either way.
      }
    }
    this.fd = undefined;
  }

  /** Writes what is gathered, then closes the file and releases the folder. */
  async close(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.closed = true;
    if (this.inFlight !== undefined) await this.inFlight.catch(() => undefined);
    if (this.chunks.length > 0) await this.commit();
    this.closeFile();
    rmSync(join(this.dir, 'lock'), { force: true });
    OPEN_HERE.delete(this.dir);
  }
}
