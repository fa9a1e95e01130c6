import { Button, Checkbox, Stack, TextInput } from '@mantine/core';
import { MSG, validateForm, WEB_PATHS, ZRegisterRequest } from '@tlprt/contract';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, linkBases } from '../../api/client';
import { FormError } from '../../components/FormError';
import { useForm } from '../../components/useForm';
import { lowerCaseEmailMessage } from './messages';

export function RegisterForm() {
  const navigate = useNavigate();
  const f = useForm<{ login: string; offer: boolean; subscription: boolean }>({
    login: '',
    offer: true,
    subscription: true,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { createPath, resetPath, loginPath } = linkBases();
    const result = validateForm(ZRegisterRequest, {
      login: f.values.login.trim(),
      createPath,
      resetPath,
      loginPath,
      offer: f.values.offer,
      subscription: f.values.subscription,
    });
    if (!result.ok) return f.showValidation(lowerCaseEmailMessage(result));
    f.setSubmitting(true);
    try {
      await api.register(result.data);
      navigate(WEB_PATHS.pendingRegistration);
    } catch (error) {
      f.showApiError(error, ['login', 'offer']);
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
        <Checkbox
          label={MSG.registerTerms}
          checked={f.values.offer}
          onChange={(e) => f.setField('offer', e.currentTarget.checked)}
          error={f.errors.offer}
        />
        <Checkbox
          label={MSG.registerUpdates}
          checked={f.values.subscription}
          onChange={(e) => f.setField('subscription', e.currentTarget.checked)}
        />
        <FormError message={f.formError} />
        <Button type="submit" size="md" fullWidth loading={f.submitting} disabled={!f.values.offer}>
          {MSG.registerButton}
        </Button>
      </Stack>
    </form>
  );
}
