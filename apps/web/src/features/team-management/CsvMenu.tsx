import { Anchor, Menu } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { MSG_TEAM_MANAGEMENT } from '@tlprt/contract';
import { downloadCsv, type ExportKind } from './api';

/** Footer link "Get CSV list of all Users or Teams": a small menu, Users or Teams. */
export function CsvMenu() {
  // a failure has its popup already
  const get = useMutation({ mutationFn: (kind: ExportKind) => downloadCsv(kind) });
  const busy = get.isPending ? get.variables : null;
  return (
    <Menu position="top-start" shadow="md" withinPortal>
      <Menu.Target>
        <Anchor component="button" type="button" size="sm">
          {busy ? `Preparing ${busy}.csv…` : MSG_TEAM_MANAGEMENT.csvLink}
        </Anchor>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>CSV list of all</Menu.Label>
        <Menu.Item onClick={() => get.mutate('users')} disabled={busy !== null}>
          Users
        </Menu.Item>
        <Menu.Item onClick={() => get.mutate('teams')} disabled={busy !== null}>
          Teams
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
