import { Anchor, Text } from '@mantine/core';
import { MSG, WEB_PATHS } from '@tlprt/contract';
import { Link } from 'react-router';
import { AuthCard } from './AuthCard';
import { IconClock } from './icons';
import { SupportContact } from './SupportContact';

/** "This link is expired" page (spec §2, §8) with the support contact. */
export function LinkExpired() {
  return (
    <AuthCard
      icon={<IconClock size={26} />}
      title={MSG.linkExpiredTitle}
      footer={
        <Anchor component={Link} to={WEB_PATHS.login} fw={500} size="sm">
          {MSG.returnToLogin}
        </Anchor>
      }
    >
      <Text ta="center" style={{ textWrap: 'balance' }}>
        {MSG.linkExpiredText}
      </Text>
      <Text ta="center" component="div">
        <SupportContact />
      </Text>
    </AuthCard>
  );
}
