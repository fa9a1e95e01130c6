import { ROUTE_NAMES, WEB_PATHS } from '@tlprt/contract';
import { Navigate } from 'react-router';
import { StatisticsScreen } from '../features/statistics/StatisticsScreen';
import { useSession } from '../platform/session/SessionProvider';
import { useRouteName } from '../platform/session/useRouteName';

/** /statistics (spec §2): range switch, list tabs, list selector and the chart. */
export default function StatisticsRoute() {
  useRouteName(ROUTE_NAMES.statistics);
  const { teams, currentTeam } = useSession();
  if (teams.length === 0 && !currentTeam) return <Navigate to={WEB_PATHS.settings} replace />;
  return <StatisticsScreen />;
}
