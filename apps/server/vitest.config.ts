import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every file starts real servers (HTTP, SMTP, sometimes PostgreSQL) and hashes passwords with argon2.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: running files one after another keeps timings (heartbeats, rate windows) predictable.
    fileParallelism: false,
  },
});
