import { Text } from '@mantine/core';
import { LIMITS, ROUTE_NAMES, Role, WEB_PATHS } from '@tlprt/contract';
import { Navigate } from 'react-router';
import { IconPlug } from '../components/icons';
import { EmptyState, PageBody, PageTitle } from '../components/Page';
import { useSession } from '../features/session/SessionProvider';
import { useRouteName } from '../features/session/useRouteName';

/** /addDomains — role 40 goes to settings (spec §2). The domain form arrives with the domains issue. */
export default function AddDomainsRoute() {
  useRouteName(ROUTE_NAMES.addDomains);
  const { currentTeam, role } = useSession();
  if (!currentTeam || role === Role.Viewer) return <Navigate to={WEB_PATHS.settings} replace />;
  return (
    <PageBody>
      <PageTitle title="Add domain" description={`A team can have up to ${LIMITS.domainsPerTeam} domains.`} />
      <EmptyState icon={<IconPlug size={28} />} title="No draft domains">
        <Text c="dimmed">Domains you add are kept here as drafts until they are verified.</Text>
      </EmptyState>
    </PageBody>
  );
}
