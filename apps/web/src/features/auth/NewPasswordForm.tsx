import { Button, Stack } from '@mantine/core';
import { validateForm, WEB_PATHS, ZSetNewPasswordRequest } from '@tlprt/contract';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { isApiError } from '../../api/errors';
import { FormError } from '../../components/FormError';
import { useForm } from '../../components/useForm';
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
  const f = useForm({ password: '', confirm: '' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = validateForm(
      ZSetNewPasswordRequest,
      { hash, password: f.values.password, confirm: f.values.confirm },
      { requiredFields: [...FIELDS] },
    );
    if (!result.ok) return f.showValidation(result);
    f.setSubmitting(true);
    try {
      const response =
        mode === 'create'
          ? await api.setNewPassword(result.data)
          : await api.passwordRecoveryAccept(result.data);
      startSession(response);
      navigate(mode === 'create' ? WEB_PATHS.createAccount : WEB_PATHS.settings, { replace: true });
    } catch (error) {
      f.setSubmitting(false);
      if (isApiError(error) && error.status === 404) return onExpired();
      f.showApiError(error, FIELDS);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <PasswordField
          label="New password"
          autoComplete="new-password"
          value={f.values.password}
          onChange={(e) => f.setField('password', e.currentTarget.value)}
          error={f.errors.password}
        />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          value={f.values.confirm}
          onChange={(e) => f.setField('confirm', e.currentTarget.value)}
          error={f.errors.confirm}
        />
        <FormError message={f.formError ?? f.errors.hash ?? null} />
        <Button type="submit" size="md" fullWidth loading={f.submitting}>
          Submit
        </Button>
      </Stack>
    </form>
  );
}
