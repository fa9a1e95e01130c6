import { Anchor, Button, Text } from '@mantine/core';
import { ROUTE_NAMES, Role, WEB_PATHS } from '@tlprt/contract';
import { Link, Navigate } from 'react-router';
import { IconPlug } from '../components/icons';
import { EmptyState, PageBody, PageTitle } from '../components/Page';
import { SupportContact } from '../components/SupportContact';
import { DOCS_URL } from '../config';
import { useSession } from '../features/session/SessionProvider';
import { useRouteName } from '../features/session/useRouteName';

/** /integration — My domains. Role 40 goes to settings (spec §2). */
export default function IntegrationRoute() {
  useRouteName(ROUTE_NAMES.integration);
  const { currentTeam, role } = useSession();
  if (!currentTeam || role === Role.Viewer) return <Navigate to={WEB_PATHS.settings} replace />;
  return (
    <PageBody>
      <PageTitle title="My domains" />
      <EmptyState icon={<IconPlug size={28} />} title="You haven't added any domain yet">
        <Button component={Link} to={WEB_PATHS.addDomains} mt="xs">
          Go to add domains
        </Button>
        <Text size="sm" c="dimmed" mt="sm">
          See the{' '}
          <Anchor href={DOCS_URL} target="_blank" rel="noreferrer" inherit>
            documentation
          </Anchor>{' '}
          for how to integrate the player.
        </Text>
        <SupportContact prefix="Questions? Contact" />
      </EmptyState>
    </PageBody>
  );
}
