import { Anchor, Text } from '@mantine/core';
import { MSG, WEB_PATHS } from '@tlprt/contract';
import { Link } from 'react-router';
import { AuthCard } from '../platform/ui/AuthCard';
import { IconMail } from '../platform/ui/icons';
import { SupportContact } from '../platform/ui/SupportContact';

/** /pendingRegistration — confirm the e-mail through the mailbox (spec §2). */
export default function PendingRegistrationRoute() {
  return (
    <AuthCard
      icon={<IconMail size={26} />}
      title="Confirm your e-mail"
      footer={
        <Anchor component={Link} to={WEB_PATHS.login} fw={500} size="sm">
          {MSG.returnToLogin}
        </Anchor>
      }
    >
      <Text ta="center" style={{ textWrap: 'balance' }}>
        {MSG.registered}.
      </Text>
      <Text ta="center" size="sm" c="dimmed">
        Follow the link in the message to create your password. It may take a minute to arrive; check the spam
        folder too.
      </Text>
      <Text ta="center" component="div">
        <SupportContact prefix="Didn't get it? Contact" />
      </Text>
    </AuthCard>
  );
}
