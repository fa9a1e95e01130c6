import { useParams } from 'react-router';
import { EmailEventScreen } from './links/EmailEventScreen';

/** /changeEmail/{hash} — checks login, then accepts the e-mail change (spec §2). */
export default function ChangeEmailRoute() {
  const { hash = '' } = useParams();
  return <EmailEventScreen key={hash} type="email" hash={hash} failAsExpired />;
}
