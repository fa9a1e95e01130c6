import { z } from 'zod';
import { requiredText } from './common.js';
import { LIMITS } from './constants.js';

/**
 * The /createAccount form (spec §2, §5): Name, Last name, Workspace name, each required. The web app
 * sends name/surname with PUT /v1/user/{id} and the workspace with POST /v1/teams/create {name}.
 */
export const ZCreateAccountForm = z.object({
  name: requiredText(LIMITS.nameMax),
  surname: requiredText(LIMITS.surnameMax),
  workspace: requiredText(LIMITS.teamNameMax),
});
export type TCreateAccountForm = z.infer<typeof ZCreateAccountForm>;
