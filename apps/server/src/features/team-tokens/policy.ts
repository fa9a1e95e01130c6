import { LIMITS } from '@tlprt/contract';

/** Who may is the contract's `tokens.*` actions (authorizeTeam); this is the rule on the count. */
export const mayAddToken = (liveTokens: number): boolean => liveTokens < LIMITS.teamTokensPerTeam;
