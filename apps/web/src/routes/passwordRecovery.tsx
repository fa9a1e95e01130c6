import { Anchor, Text } from '@mantine/core';
import { MSG, WEB_PATHS } from '@tlprt/contract';
import { Link } from 'react-router';
import { AuthCard } from '../platform/ui/AuthCard';
import { IconMail } from '../platform/ui/icons';
import { SupportContact } from '../platform/ui/SupportContact';

/** /passwordRecovery — instructions will be mailed if an account is found (spec §2). */
export default function PasswordRecoveryRoute() {
  return (
    <AuthCard
      icon={<IconMail size={26} />}
      title="Check your mailbox"
      footer={
        <Anchor component={Link} to={WEB_PATHS.login} fw={500} size="sm">
          {MSG.returnToLogin}
        </Anchor>
      }
    >
      <Text ta="center">{MSG.recoverySent}.</Text>
      <Text ta="center" component="div">
        <SupportContact prefix="Need help? Contact" />
      </Text>
    </AuthCard>
  );
}
