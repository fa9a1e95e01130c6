import { Button, Stack, TextInput } from '@mantine/core';
import { validateForm, WEB_PATHS, ZRecoveryRequest } from '@tlprt/contract';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, linkBases } from '../../api/client';
import { FormError } from '../../components/FormError';
import { useForm } from '../../components/useForm';
import { lowerCaseEmailMessage } from './messages';

export function ForgotPasswordForm() {
  const navigate = useNavigate();
  const f = useForm({ login: '' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = validateForm(ZRecoveryRequest, {
      login: f.values.login.trim(),
      url: linkBases().recoveryUrl,
    });
    if (!result.ok) return f.showValidation(lowerCaseEmailMessage(result));
    f.setSubmitting(true);
    try {
      await api.recoverPassword(result.data);
      navigate(WEB_PATHS.passwordRecovery);
    } catch (error) {
      f.showApiError(error, ['login']);
      f.setSubmitting(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="email"
          size="md"
          value={f.values.login}
          onChange={(e) => f.setField('login', e.currentTarget.value)}
          error={f.errors.login}
        />
        <FormError message={f.formError} />
        <Button type="submit" size="md" fullWidth loading={f.submitting}>
          Submit
        </Button>
      </Stack>
    </form>
  );
}
