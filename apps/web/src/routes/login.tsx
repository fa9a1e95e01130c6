import { Anchor, Text } from '@mantine/core';
import { WEB_PATHS } from '@tlprt/contract';
import { Link, Navigate, useSearchParams } from 'react-router';
import { LoginForm } from '../features/auth/LoginForm';
import { getToken, pathAfterLogin, RETURN_PARAM } from '../platform/session/storage';
import { AuthCard } from '../platform/ui/AuthCard';

/** "/" — login (spec §2). Already signed in: straight on, to the address asked for (`next`), the last screen or Statistics. */
export default function LoginRoute() {
  const [params] = useSearchParams();
  if (getToken()) return <Navigate to={pathAfterLogin(params.get(RETURN_PARAM))} replace />;
  return (
    <AuthCard
      title="Log in"
      subtitle="Welcome back. Sign in to manage your domains, keys and traffic."
      footer={
        <Text size="sm" c="dimmed">
          Don't have an account?{' '}
          <Anchor component={Link} to={WEB_PATHS.register} fw={500}>
            Sign up
          </Anchor>
        </Text>
      }
    >
      <LoginForm />
    </AuthCard>
  );
}
