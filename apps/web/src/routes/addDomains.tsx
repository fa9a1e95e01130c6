import { LIMITS, ROUTE_NAMES, Role, WEB_PATHS } from '@tlprt/contract';
import { Navigate } from 'react-router';
import { AddDomains } from '../features/domains/AddDomains';
import { useSession } from '../platform/session/SessionProvider';
import { useRouteName } from '../platform/session/useRouteName';
import { PageBody, PageTitle } from '../platform/ui/Page';

/** /addDomains — role 40 goes to settings (spec §2); drafts, verification and the player snippets. */
export default function AddDomainsRoute() {
  useRouteName(ROUTE_NAMES.addDomains);
  const { currentTeam, role } = useSession();
  if (!currentTeam || role === Role.Viewer) return <Navigate to={WEB_PATHS.settings} replace />;
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
