import { Button, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type TRecoveryRequest, WEB_PATHS, ZRecoveryRequest } from '@tlprt/contract';
import { useNavigate } from 'react-router';
import { api, linkBases } from '../../platform/api/client';
import { formError, showApiError, useContractForm } from '../../platform/form';
import { FormError } from '../../platform/ui/FormError';
import { lowerCaseEmailMessage } from './messages';

export function ForgotPasswordForm() {
  const navigate = useNavigate();
  const form = useContractForm(ZRecoveryRequest, {
    initialValues: { login: '' },
    toInput: (v) => ({ login: v.login.trim(), url: linkBases().recoveryUrl }),
    rewrite: lowerCaseEmailMessage,
  });
  const recover = useMutation({
    mutationFn: (body: TRecoveryRequest) => api.recoverPassword(body),
    onSuccess: () => navigate(WEB_PATHS.passwordRecovery),
    onError: (error) => showApiError(form, error, ['login']),
  });

  return (
    <form onSubmit={form.onSubmit((body) => recover.mutate(body))} noValidate>
      <Stack gap="md">
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="email"
          size="md"
          {...form.getInputProps('login')}
        />
        <FormError message={formError(form)} />
        <Button type="submit" size="md" fullWidth loading={recover.isPending}>
          Submit
        </Button>
      </Stack>
    </form>
  );
}
