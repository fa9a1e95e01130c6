import { Anchor } from '@mantine/core';
import { MSG, WEB_PATHS } from '@tlprt/contract';
import { Link } from 'react-router';
import { RegisterForm } from '../features/auth/RegisterForm';
import { AuthCard } from '../platform/ui/AuthCard';

/** /register — "Start free trial" (spec §2). */
export default function RegisterRoute() {
  return (
    <AuthCard
      title={MSG.registerTitle}
      subtitle="Enter your e-mail and we will send you a link to set your password."
      footer={
        <Anchor component={Link} to={WEB_PATHS.login} fw={500} size="sm">
          {MSG.haveAccount}
        </Anchor>
      }
    >
      <RegisterForm />
    </AuthCard>
  );
}
