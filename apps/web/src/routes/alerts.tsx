import { ROUTE_NAMES, WEB_PATHS } from '@tlprt/contract';
import { Navigate } from 'react-router';
import { AlertsScreen } from '../features/alerts/AlertsScreen';
import { useSession } from '../platform/session/SessionProvider';
import { useRouteName } from '../platform/session/useRouteName';
import { PageBody } from '../platform/ui/Page';

/** /alerts — the team's alert rules (docs/DESIGN.md §13); Viewers see them read-only. */
export default function AlertsRoute() {
  useRouteName(ROUTE_NAMES.alerts);
  const { currentTeam } = useSession();
  if (!currentTeam) return <Navigate to={WEB_PATHS.settings} replace />;
  return (
    <PageBody>
      <AlertsScreen team={currentTeam} />
    </PageBody>
  );
}
