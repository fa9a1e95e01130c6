import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { MSG, WEB_PATHS } from '@tlprt/contract';
import { Link } from 'react-router';
import { getToken } from '../../platform/session/storage';
import { AuthCard } from '../../platform/ui/AuthCard';
import { IconAlert, IconCircleCheck } from '../../platform/ui/icons';
import { SupportContact } from '../../platform/ui/SupportContact';

/** Result pages of the e-mail link screens. */
export function LinkSuccess({ title, text }: { title: string; text?: string }) {
  const signedIn = getToken() !== null;
  return (
    <AuthCard icon={<IconCircleCheck size={26} />} title={title}>
      {text && (
        <Text ta="center" c="dimmed">
          {text}
        </Text>
      )}
      <Button
        component={Link}
        to={signedIn ? WEB_PATHS.settings : WEB_PATHS.login}
        fullWidth
        size="md"
        variant="light"
      >
        {signedIn ? 'Go to the dashboard' : MSG.returnToLogin}
      </Button>
    </AuthCard>
  );
}

export function CantPerform() {
  return (
    <AuthCard icon={<IconAlert size={26} />} title={MSG.cantPerformTitle}>
      <Text ta="center">{MSG.cantPerformText}</Text>
      <Text ta="center" component="div">
        <SupportContact />
      </Text>
      <Button
        component={Link}
        to={getToken() ? WEB_PATHS.settings : WEB_PATHS.login}
        fullWidth
        size="md"
        variant="light"
      >
        {getToken() ? 'Go to the dashboard' : MSG.returnToLogin}
      </Button>
    </AuthCard>
  );
}

export function Working() {
  return (
    <AuthCard title="One moment…">
      <Center py="md">
        <Stack align="center" gap="sm">
          <Loader />
          <Text c="dimmed" size="sm">
            Checking the link
          </Text>
        </Stack>
      </Center>
    </AuthCard>
  );
}
