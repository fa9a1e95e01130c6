import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every file starts real servers (HTTP, SMTP, sometimes PostgreSQL) and hashes passwords with argon2.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: running files one after another keeps timings (heartbeats, rate windows) predictable.
    fileParallelism: false,
    // One worker runs every file with its modules loaded once: a fresh worker per file spent about
    // 1.6 s a file compiling and loading the app again (80 s of a 180 s run).
    isolate: false,
  },
});
