import { useParams } from 'react-router';
import { EmailEventScreen } from './links/EmailEventScreen';

/** /deleteUserAccount/{hash} — confirms the account deletion; the session ends (spec §2). */
export default function DeleteUserAccountRoute() {
  const { hash = '' } = useParams();
  return <EmailEventScreen key={hash} type="delete-user" hash={hash} failAsExpired />;
}
