import { LIMITS, ROUTE_NAMES, WEB_PATHS } from '@tlprt/contract';
import { Navigate } from 'react-router';
import { AddDomains } from '../features/domains/AddDomains';
import { useRoleRights } from '../platform/session/policy';
import { useSession } from '../platform/session/SessionProvider';
import { useRouteName } from '../platform/session/useRouteName';
import { PageBody, PageTitle } from '../platform/ui/Page';

/** /addDomains — a role without domains (Viewer) goes to settings (spec §2); drafts, verification and the player snippets. */
export default function AddDomainsRoute() {
  useRouteName(ROUTE_NAMES.addDomains);
  const { currentTeam } = useSession();
  const rights = useRoleRights();
  if (!currentTeam || !rights.managesDomains) return <Navigate to={WEB_PATHS.settings} replace />;
  return (
    <PageBody>
      <PageTitle
        title="Add domain"
        description={`Add a website, verify it and connect your player. Up to ${LIMITS.domainsPerTeam} domains per team.`}
      />
      <AddDomains />
    </PageBody>
  );
}
