import { ROUTE_NAMES, WEB_PATHS } from '@tlprt/contract';
import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { MyDomains } from '../features/domains/MyDomains';
import { useRoleRights } from '../platform/session/policy';
import { useSession } from '../platform/session/SessionProvider';
import { setStoredTeamId } from '../platform/session/storage';
import { useRouteName } from '../platform/session/useRouteName';
import { PageBody, PageTitle } from '../platform/ui/Page';

/** /integration — My domains. Stores its route name and team id; a role without domains (Viewer) goes to settings (spec §2). */
export default function IntegrationRoute() {
  useRouteName(ROUTE_NAMES.integration);
  const { currentTeam } = useSession();
  const rights = useRoleRights();
  const teamId = currentTeam?.id ?? null;
  useEffect(() => {
    if (teamId !== null) setStoredTeamId(teamId);
  }, [teamId]);
  if (!currentTeam || !rights.managesDomains) return <Navigate to={WEB_PATHS.settings} replace />;
  return (
    <PageBody>
      <PageTitle title="My domains" description="Verified domains of this team and their service keys." />
      <MyDomains />
    </PageBody>
  );
}
