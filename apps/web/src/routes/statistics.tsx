import { Button, Text } from '@mantine/core';
import { ROUTE_NAMES, Role, WEB_PATHS } from '@tlprt/contract';
import { Link, Navigate } from 'react-router';
import { IconChart } from '../components/icons';
import { EmptyState, PageBody, PageTitle } from '../components/Page';
import { useSession } from '../features/session/SessionProvider';
import { useRouteName } from '../features/session/useRouteName';

/** /statistics — the charts arrive with the statistics issue; until then the no-domain notice. */
export default function StatisticsRoute() {
  useRouteName(ROUTE_NAMES.statistics);
  const { teams, role } = useSession();
  if (teams.length === 0) return <Navigate to={WEB_PATHS.settings} replace />;
  return (
    <PageBody>
      <PageTitle title="Statistics" description="CDN and P2P traffic of your verified domains." />
      <EmptyState icon={<IconChart size={28} />} title="No verified domain yet">
        {role === Role.Viewer ? (
          <Text c="dimmed">Your team haven't added any domain yet</Text>
        ) : (
          <>
            <Text c="dimmed">
              Statistics appear here once a domain of this team is verified and its keys send traffic.
            </Text>
            <Button component={Link} to={WEB_PATHS.addDomains} mt="xs">
              Go to add domains
            </Button>
          </>
        )}
      </EmptyState>
    </PageBody>
  );
}
