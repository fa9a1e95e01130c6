import type { OriginRow } from '../../db/schema.js';

/** A suspended origin cannot be switched on or off by the team. */
export const mayToggleOrigin = (o: Pick<OriginRow, 'suspended'>): boolean => o.suspended === 0;
