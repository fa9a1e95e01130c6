import { Alert, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { MSG, MSG_TEAMS } from '@tlprt/contract';
import type { ReactNode } from 'react';
import { IconAlert } from './icons';

/** Title row of a dashboard screen. */
export function PageTitle({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end" mb="lg" gap="sm">
      <div>
        <Title order={1} fz={{ base: 22, sm: 26 }}>
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm" mt={4}>
            {description}
          </Text>
        )}
      </div>
      {actions}
    </Group>
  );
}

/** Centred empty state inside a card. */
export function EmptyState({
  icon,
  title,
  children,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
}) {
  return (
    <Card withBorder p={{ base: 'lg', sm: 48 }}>
      <Stack align="center" ta="center" gap="sm" maw={520} mx="auto">
        {icon && (
          <ThemeIcon size={56} radius="xl" variant="light">
            {icon}
          </ThemeIcon>
        )}
        <Title order={2} fz="lg">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

/** What a screen or card shows when its data could not be loaded. */
export function LoadFailedAlert() {
  return (
    <Alert color="red" variant="light" icon={<IconAlert />} title={MSG.serverErrorTitle}>
      {MSG.serverErrorText}
    </Alert>
  );
}

/** The banner of a suspended team's screens, above what they show read-only. */
export function SuspendedBanner() {
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlert />}
      title="Team suspended"
      data-testid="suspended-banner"
    >
      {MSG_TEAMS.teamSuspendedNotice}
    </Alert>
  );
}

/** Max-width column for dashboard content. */
export function PageBody({ children }: { children: ReactNode }) {
  return (
    <Stack maw={1100} gap={0}>
      {children}
    </Stack>
  );
}

/** The padding of a settings card, the same for every card of the team and domain screens. */
export const cardPadding = { base: 'md', sm: 'xl' } as const;
