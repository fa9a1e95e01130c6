import { Anchor } from '@mantine/core';
import { MSG, WEB_PATHS } from '@tlprt/contract';
import { Link } from 'react-router';
import { ForgotPasswordForm } from '../features/auth/ForgotPasswordForm';
import { AuthCard } from '../platform/ui/AuthCard';

/** /forgotPassword — e-mail plus Submit (spec §2). */
export default function ForgotPasswordRoute() {
  return (
    <AuthCard
      title="Forgot password?"
      subtitle="Enter the e-mail of your account and we will send you a link to reset the password."
      footer={
        <Anchor component={Link} to={WEB_PATHS.login} fw={500} size="sm">
          {MSG.returnToLogin}
        </Anchor>
      }
    >
      <ForgotPasswordForm />
    </AuthCard>
  );
}
