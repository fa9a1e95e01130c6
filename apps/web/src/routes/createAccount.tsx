import { WEB_PATHS } from '@tlprt/contract';
import { Navigate } from 'react-router';
import { CreateAccountForm } from '../features/auth/CreateAccountForm';
import { useSessionCheck } from '../platform/session/queries';
import { getToken } from '../platform/session/storage';
import { AuthCard } from '../platform/ui/AuthCard';
import { LoaderLogo } from '../platform/ui/LoaderLogo';

/** /createAccount — requires login; Name, Last name, Workspace name, Start (spec §2). */
export default function CreateAccountRoute() {
  const check = useSessionCheck();
  if (!getToken()) return <Navigate to={WEB_PATHS.login} replace />;
  if (!check.data) return <LoaderLogo />;
  return (
    <AuthCard title="Create your account" subtitle="Tell us who you are and name your first workspace.">
      <CreateAccountForm userId={check.data.id} />
    </AuthCard>
  );
}
