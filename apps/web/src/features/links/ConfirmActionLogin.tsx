import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { MSG_TEAMS, validateForm, WEB_PATHS, ZLoginRequest } from '@tlprt/contract';
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { AuthCard } from '../../components/AuthCard';
import { FormError } from '../../components/FormError';
import { useForm } from '../../components/useForm';
import { PasswordField } from '../auth/PasswordField';
import { startSession } from '../auth/session';

const FIELDS = ['login', 'password'] as const;

/**
 * "Confirm action" sign-in of the e-mail link screens (spec §2, §5): e-mail, password with show/hide,
 * a link to sign up; validated only on submit; the action runs after login (`onLoggedIn`).
 */
export function ConfirmActionLogin({ onLoggedIn, subtitle }: { onLoggedIn: () => void; subtitle?: string }) {
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
      f.setSubmitting(false);
      onLoggedIn();
    } catch (error) {
      f.showApiError(error, FIELDS);
      f.setSubmitting(false);
    }
  };
  return (
    <AuthCard
      title={MSG_TEAMS.confirmAction}
      subtitle={subtitle ?? 'Sign in to the account this link was sent to.'}
      footer={
        <>
          Don&apos;t have an account?{' '}
          <Anchor component={Link} to={WEB_PATHS.register} fw={500}>
            Sign up
          </Anchor>
        </>
      }
    >
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
          <FormError message={f.formError} />
          <Button type="submit" size="md" fullWidth loading={f.submitting}>
            Login
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
