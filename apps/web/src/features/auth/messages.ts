import type { FormErrors } from '@mantine/form';
import { MSG } from '@tlprt/contract';

/** Spec §5: the register and forgot-password forms say "invalid email" (not "Invalid e-mail"). */
export function lowerCaseEmailMessage(errors: FormErrors): FormErrors {
  if (errors.login !== MSG.invalidEmail) return errors;
  return { ...errors, login: MSG.invalidEmailLower };
}
