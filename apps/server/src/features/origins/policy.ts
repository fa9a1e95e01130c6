import type { OriginRow } from '../../db/schema.js';

/** A suspended origin cannot be switched on or off by the team. */
export const mayToggleOrigin = (o: Pick<OriginRow, 'suspended'>): boolean => o.suspended === 0;

/** Origin status: 10 active, 20 inactive. */
export const OriginStatus = { Active: 10, Inactive: 20 } as const;
