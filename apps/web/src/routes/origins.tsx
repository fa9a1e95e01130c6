import { Text } from '@mantine/core';
import { ROUTE_NAMES } from '@tlprt/contract';
import { IconServer } from '../components/icons';
import { EmptyState, PageBody, PageTitle } from '../components/Page';
import { useRouteName } from '../features/session/useRouteName';

/** /origins — the list arrives with the origins issue. */
export default function OriginsRoute() {
  useRouteName(ROUTE_NAMES.origins);
  return (
    <PageBody>
      <PageTitle title="Origins" />
      <EmptyState icon={<IconServer size={28} />} title="No origins yet">
        <Text c="dimmed">Origins of this team are listed here.</Text>
      </EmptyState>
    </PageBody>
  );
}
