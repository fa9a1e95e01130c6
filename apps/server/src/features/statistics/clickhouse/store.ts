import type { Db } from '../../../db/index.js';
import type { StatsStore } from '../store.js';

export async function openClickHouseStore(url: string, db: Db): Promise<StatsStore> {
  throw new Error(`not yet ${url} ${Boolean(db)}`);
}
