import { useParams } from 'react-router';
import { EmailCancelScreen } from './links/EmailCancelScreen';

/** /email_cancel_handler/{type}/{name=teamId}/{hash} (spec §2). */
export default function EmailCancelHandlerRoute() {
  const { type, teamId, hash = '' } = useParams();
  return <EmailCancelScreen key={`${type}/${teamId}/${hash}`} type={type} teamSegment={teamId} hash={hash} />;
}
