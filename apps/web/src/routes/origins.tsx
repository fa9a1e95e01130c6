import { ROUTE_NAMES, WEB_PATHS } from '@tlprt/contract';
import { Navigate } from 'react-router';
import { Origins } from '../features/origins/Origins';
import { useSession } from '../platform/session/SessionProvider';
import { useRouteName } from '../platform/session/useRouteName';
import { PageBody, PageTitle } from '../platform/ui/Page';

/** /origins — the team's CDN origins; Viewers see them read-only. */
export default function OriginsRoute() {
  useRouteName(ROUTE_NAMES.origins);
  const { currentTeam } = useSession();
  if (!currentTeam) return <Navigate to={WEB_PATHS.settings} replace />;
  return (
    <PageBody>
      <PageTitle title="Origins" description="The CDN hosts your players load video segments from." />
      <Origins />
    </PageBody>
  );
}
