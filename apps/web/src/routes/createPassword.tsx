import { MSG } from '@tlprt/contract';
import { useState } from 'react';
import { useLoaderData } from 'react-router';
import { NewPasswordForm } from '../features/auth/NewPasswordForm';
import { AuthCard } from '../platform/ui/AuthCard';
import { LinkExpired } from '../platform/ui/LinkExpired';
import type { HashCheck } from './hashLoader';

/** The hash-checked new-password screen shared by /createPassword and /resPassword. */
export function PasswordLinkScreen({ mode }: { mode: 'create' | 'reset' }) {
  const { hash, valid } = useLoaderData() as HashCheck;
  const [expired, setExpired] = useState(!valid);
  if (expired) return <LinkExpired />;
  return (
    <AuthCard
      title={mode === 'create' ? MSG.createPasswordTitle : MSG.resetTitle}
      subtitle="Choose a password of at least 6 symbols."
    >
      <NewPasswordForm hash={hash} mode={mode} onExpired={() => setExpired(true)} />
    </AuthCard>
  );
}

/** /createPassword/{hash} — first password from the sign-up mail; then /createAccount. */
export default function CreatePasswordRoute() {
  return <PasswordLinkScreen mode="create" />;
}
