import { Anchor } from '@mantine/core';
import { MSG_TEAMS, WEB_PATHS } from '@tlprt/contract';
import { Link } from 'react-router';
import { LoginForm } from '../../features/auth/LoginForm';
import { AuthCard } from '../../platform/ui/AuthCard';

/**
 * "Confirm action" sign-in of the e-mail link screens (spec §2, §5): e-mail, password with show/hide,
 * a link to sign up; validated only on submit; the action runs after login (`onLoggedIn`).
 */
export function ConfirmActionLogin({ onLoggedIn, subtitle }: { onLoggedIn: () => void; subtitle?: string }) {
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
      <LoginForm onLoggedIn={onLoggedIn} forgotLink={false} />
    </AuthCard>
  );
}
