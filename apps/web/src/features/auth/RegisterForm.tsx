import { Button, Checkbox, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { MSG, type TRegisterRequest, WEB_PATHS, ZRegisterRequest } from '@tlprt/contract';
import { useNavigate } from 'react-router';
import { api, linkBases } from '../../platform/api/client';
import { formError, showApiError, useContractForm } from '../../platform/form';
import { FormError } from '../../platform/ui/FormError';
import { lowerCaseEmailMessage } from './messages';

export function RegisterForm() {
  const navigate = useNavigate();
  const form = useContractForm(ZRegisterRequest, {
    initialValues: { login: '', offer: true, subscription: true },
    toInput: (v) => {
      const { createPath, resetPath, loginPath } = linkBases();
      return { ...v, login: v.login.trim(), createPath, resetPath, loginPath };
    },
    rewrite: lowerCaseEmailMessage,
  });
  const register = useMutation({
    mutationFn: (body: TRegisterRequest) => api.register(body),
    onSuccess: () => navigate(WEB_PATHS.pendingRegistration),
    onError: (error) => showApiError(form, error, ['login', 'offer']),
  });

  return (
    <form onSubmit={form.onSubmit((body) => register.mutate(body))} noValidate>
      <Stack gap="md">
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="email"
          size="md"
          {...form.getInputProps('login')}
        />
        <Checkbox label={MSG.registerTerms} {...form.getInputProps('offer', { type: 'checkbox' })} />
        <Checkbox
          label={MSG.registerUpdates}
          {...form.getInputProps('subscription', { type: 'checkbox', withError: false })}
        />
        <FormError message={formError(form)} />
        <Button type="submit" size="md" fullWidth loading={register.isPending} disabled={!form.values.offer}>
          {MSG.registerButton}
        </Button>
      </Stack>
    </form>
  );
}
