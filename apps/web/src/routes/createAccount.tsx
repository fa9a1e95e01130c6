import { WEB_PATHS } from '@tlprt/contract';
import { Navigate } from 'react-router';
import { AuthCard } from '../components/AuthCard';
import { LoaderLogo } from '../components/LoaderLogo';
import { CreateAccountForm } from '../features/auth/CreateAccountForm';
import { useSessionCheck } from '../features/session/queries';
import { getToken } from '../features/session/storage';

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
