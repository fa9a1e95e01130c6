import { NavLink } from '@mantine/core';
import { isPlatformSupervisor, MSG_TEAM_MANAGEMENT } from '@tlprt/contract';
import { useState } from 'react';
import { useSession } from '../../platform/session/SessionProvider';
import { IconShield } from '../../platform/ui/icons';
import { TeamManagementPanel } from './TeamManagementPanel';

/** The sidebar button that opens the Team Management panel: supervisors only (spec §1, §6). */
export function TeamManagementButton({ onOpen }: { onOpen?: () => void }) {
  const { user } = useSession();
  const [opened, setOpened] = useState(false);
  if (!isPlatformSupervisor(user)) return null;
  return (
    <>
      <NavLink
        component="button"
        label={MSG_TEAM_MANAGEMENT.title}
        leftSection={<IconShield />}
        aria-haspopup="dialog"
        onClick={() => {
          setOpened(true);
          onOpen?.();
        }}
        style={{ borderRadius: 8 }}
      />
      <TeamManagementPanel opened={opened} onClose={() => setOpened(false)} />
    </>
  );
}
