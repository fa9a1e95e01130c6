import { Button, Text } from '@mantine/core';
import { MSG } from '@tlprt/contract';
import { useRouteError } from 'react-router';
import { AuthCard } from '../platform/ui/AuthCard';

/** Last-resort screen for an unexpected rendering error. */
export default function RouteErrorScreen() {
  const error = useRouteError();
  console.error(error);
  return (
    <AuthCard title={MSG.serverErrorTitle}>
      <Text ta="center">{MSG.serverErrorText}</Text>
      <Button onClick={() => window.location.reload()} fullWidth variant="light">
        Reload
      </Button>
    </AuthCard>
  );
}
