// Helpers shared by the benchmarks of scripts/bench (not a benchmark itself: the runner only runs the
// .mjs files directly in scripts/bench).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The p-th percentile (nearest rank) of a list of numbers. */
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
export const round = (x) => Math.round(x * 100) / 100;

/** A fresh database on the BENCH_DATABASE_URL server (dropped afterwards). */
export async function freshPg(url) {
  const name = `tlprt_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
