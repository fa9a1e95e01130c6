import { readdirSync, readFileSync } from 'node:fs';

/** The tracker workers this test process has started (its children running the worker's script). */
export function workerPids(): number[] {
  const pids: number[] = [];
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    const children = readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim();
    for (const pid of children ? children.split(' ').map(Number) : []) {
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('tracker-worker')) pids.push(pid);
      } catch {
        // It ended between the two reads.
      }
    }
  }
  return pids;
}
