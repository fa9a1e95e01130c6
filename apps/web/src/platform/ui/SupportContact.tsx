import { Anchor, Text } from '@mantine/core';
import { supportEmail } from '../config';

/** "Contact support: <address>" (spec §1: configurable support address). */
export function SupportContact({ prefix = 'Contact support:' }: { prefix?: string }) {
  const email = supportEmail();
  return (
    <Text size="sm" c="dimmed">
      {prefix}{' '}
      <Anchor href={`mailto:${email}`} fw={500}>
        {email}
      </Anchor>
    </Text>
  );
}
