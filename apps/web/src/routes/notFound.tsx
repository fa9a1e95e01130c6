import { Button, Text } from '@mantine/core';
import { MSG } from '@tlprt/contract';
import { Link } from 'react-router';
import { AuthCard } from '../platform/ui/AuthCard';

/** Any other path (spec §2). */
export default function NotFoundRoute() {
  return (
    <AuthCard title="Page not found">
      <Text
        size="xl"
        fw={700}
        c="brand"
        ta="center"
        style={{ fontSize: 56, lineHeight: 1 }}
        aria-hidden="true"
      >
        404
      </Text>
      <Text ta="center">{MSG.notFoundPage}</Text>
      <Button component={Link} to="/" variant="light" fullWidth size="md">
        Go to the home page
      </Button>
    </AuthCard>
  );
}
