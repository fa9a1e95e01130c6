import type { MigrationDb } from './helpers.js';

/** Placeholder, filled by its feature's work (issue 36). */
export async function up(_db: MigrationDb): Promise<void> {}

export async function down(_db: MigrationDb): Promise<void> {}
