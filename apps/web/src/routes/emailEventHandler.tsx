import { useParams } from 'react-router';
import { EmailEventScreen } from './links/EmailEventScreen';

/** /email_event_handler/{type}/{hash} (spec §2). */
export default function EmailEventHandlerRoute() {
  const { type, hash = '' } = useParams();
  return <EmailEventScreen key={`${type}/${hash}`} type={type} hash={hash} />;
}
