import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { validateForm, WEB_PATHS, ZLoginRequest } from '@tlprt/contract';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client';
import { FormError } from '../../components/FormError';
import { useForm } from '../../components/useForm';
import { pathAfterLogin } from '../session/storage';
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
  const f = useForm({ login: '', password: '' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = validateForm(
      ZLoginRequest,
      { login: f.values.login.trim(), password: f.values.password },
      { requiredFields: [...FIELDS] },
    );
    if (!result.ok) return f.showValidation(result);
    f.setSubmitting(true);
    try {
      startSession(await api.login(result.data));
      if (onLoggedIn) {
        f.setSubmitting(false);
        onLoggedIn();
      } else navigate(pathAfterLogin(), { replace: true });
    } catch (error) {
      f.showApiError(error, FIELDS);
      f.setSubmitting(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="username"
          size="md"
          value={f.values.login}
          onChange={(e) => f.setField('login', e.currentTarget.value)}
          error={f.errors.login}
        />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          value={f.values.password}
          onChange={(e) => f.setField('password', e.currentTarget.value)}
          error={f.errors.password}
        />
        {forgotLink && (
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to={WEB_PATHS.forgotPassword} size="sm">
              Forgot password?
            </Anchor>
          </Group>
        )}
        <FormError message={f.formError} />
        <Button type="submit" size="md" fullWidth loading={f.submitting}>
          Login
        </Button>
      </Stack>
    </form>
  );
}
