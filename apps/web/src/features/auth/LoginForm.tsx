import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type TLoginRequest, WEB_PATHS, ZLoginRequest } from '@tlprt/contract';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../platform/api/client';
import { formError, showApiError, useContractForm } from '../../platform/form';
import { pathAfterLogin, RETURN_PARAM } from '../../platform/session/storage';
import { FormError } from '../../platform/ui/FormError';
import { PasswordField } from './PasswordField';
import { startSession } from './session';

const FIELDS = ['login', 'password'] as const;

/**
 * The sign-in form of the login screen and of the e-mail link screens' "Confirm action" card: by default
 * it goes on to the stored route; `onLoggedIn` replaces that (the link screen then performs its action).
 */
export function LoginForm({
  onLoggedIn,
  forgotLink = true,
}: {
  onLoggedIn?: () => void;
  forgotLink?: boolean;
}) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const form = useContractForm(ZLoginRequest, {
    initialValues: { login: '', password: '' },
    toInput: (v) => ({ login: v.login.trim(), password: v.password }),
    requiredFields: FIELDS,
  });
  const login = useMutation({
    mutationFn: (body: TLoginRequest) => api.login(body),
    onSuccess: (response) => {
      startSession(response);
      if (onLoggedIn) onLoggedIn();
      else navigate(pathAfterLogin(params.get(RETURN_PARAM)), { replace: true });
    },
    onError: (error) => showApiError(form, error, FIELDS),
  });

  return (
    <form onSubmit={form.onSubmit((body) => login.mutate(body))} noValidate>
      <Stack gap="md">
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="username"
          size="md"
          {...form.getInputProps('login')}
        />
        <PasswordField label="Password" autoComplete="current-password" {...form.getInputProps('password')} />
        {forgotLink && (
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to={WEB_PATHS.forgotPassword} size="sm">
              Forgot password?
            </Anchor>
          </Group>
        )}
        <FormError message={formError(form)} />
        <Button type="submit" size="md" fullWidth loading={login.isPending}>
          Login
        </Button>
      </Stack>
    </form>
  );
}
