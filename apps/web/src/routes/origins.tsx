import { ROUTE_NAMES, WEB_PATHS } from '@tlprt/contract';
import { Navigate } from 'react-router';
import { PageBody, PageTitle } from '../components/Page';
import { Origins } from '../features/origins/Origins';
import { useSession } from '../features/session/SessionProvider';
import { useRouteName } from '../features/session/useRouteName';

/** /origins — the team's CDN origins; Viewers see them read-only. */
export default function OriginsRoute() {
  useRouteName(ROUTE_NAMES.origins);
  const { currentTeam } = useSession();
  if (!currentTeam) return <Navigate to={WEB_PATHS.settings} replace />;
  return (
    <PageBody>
      <PageTitle title="Origins" description="CDN hosts this team pulls video through." />
      <Origins />
    </PageBody>
  );
}
