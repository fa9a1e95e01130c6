import { Button, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type TSetNewPasswordRequest, WEB_PATHS, ZSetNewPasswordRequest } from '@tlprt/contract';
import { useNavigate } from 'react-router';
import { api } from '../../platform/api/client';
import { isApiError } from '../../platform/api/errors';
import { formError, showApiError, useContractForm } from '../../platform/form';
import { FormError } from '../../platform/ui/FormError';
import { PasswordField } from './PasswordField';
import { startSession } from './session';

const FIELDS = ['password', 'confirm'] as const;

/**
 * New password + confirmation, for /createPassword/{hash} (then /createAccount) and
 * /resPassword/{hash} (then /settings). A 404 means the link died meanwhile.
 */
export function NewPasswordForm({
  hash,
  mode,
  onExpired,
}: {
  hash: string;
  mode: 'create' | 'reset';
  onExpired: () => void;
}) {
  const navigate = useNavigate();
  const form = useContractForm(ZSetNewPasswordRequest, {
    initialValues: { password: '', confirm: '' },
    toInput: (v) => ({ ...v, hash }),
    requiredFields: FIELDS,
  });
  const setPassword = useMutation({
    mutationFn: (body: TSetNewPasswordRequest) =>
      mode === 'create' ? api.setNewPassword(body) : api.passwordRecoveryAccept(body),
    onSuccess: (response) => {
      startSession(response);
      navigate(mode === 'create' ? WEB_PATHS.createAccount : WEB_PATHS.settings, { replace: true });
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 404) return onExpired();
      showApiError(form, error, FIELDS);
    },
  });

  const hashError = form.errors.hash;
  return (
    <form onSubmit={form.onSubmit((body) => setPassword.mutate(body))} noValidate>
      <Stack gap="md">
        <PasswordField label="New password" autoComplete="new-password" {...form.getInputProps('password')} />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          {...form.getInputProps('confirm')}
        />
        <FormError message={formError(form) ?? (typeof hashError === 'string' ? hashError : null)} />
        <Button type="submit" size="md" fullWidth loading={setPassword.isPending}>
          Submit
        </Button>
      </Stack>
    </form>
  );
}
