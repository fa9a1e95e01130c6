import { useParams, useSearchParams } from 'react-router';
import { EmailInviteScreen } from './links/EmailInviteScreen';

/** /email_invite_handler/{old|new|decline}/{hash}?teamIdInvite= (spec §2). */
export default function EmailInviteHandlerRoute() {
  const { type, hash = '' } = useParams();
  const [params] = useSearchParams();
  const n = Number(params.get('teamIdInvite'));
  return (
    <EmailInviteScreen
      key={`${type}/${hash}`}
      type={type}
      hash={hash}
      teamIdInvite={Number.isInteger(n) && n > 0 ? n : null}
    />
  );
}
