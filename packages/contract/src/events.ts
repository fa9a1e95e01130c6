import { z } from 'zod';

/** One message of the live stream: `data: {"code": N, ...fields of spec §4}`. */
export const ZLiveEvent = z.looseObject({
  code: z.number().int(),
  team_id: z.number().int().optional(),
});
export type TLiveEvent = z.infer<typeof ZLiveEvent>;
