import { z } from 'zod';
import { envelope, requiredText } from './common.js';
import { LIMITS } from './constants.js';
import { ZTeamSummary } from './user.js';

export const ZCreateTeamRequest = z.object({ name: requiredText(LIMITS.teamNameMax) });
export type TCreateTeamRequest = z.infer<typeof ZCreateTeamRequest>;
export const ZTeamResponse = envelope(ZTeamSummary);
export type TTeamResponse = z.infer<typeof ZTeamResponse>;
