import { type FieldErrors, MSG } from '@tlprt/contract';

/** Spec §5: the register and forgot-password forms say "invalid email" (not "Invalid e-mail"). */
export function lowerCaseEmailMessage<R extends { fieldErrors: FieldErrors; formError?: string }>(
  result: R,
): R {
  if (result.fieldErrors.login !== MSG.invalidEmail) return result;
  return { ...result, fieldErrors: { ...result.fieldErrors, login: MSG.invalidEmailLower } };
}
