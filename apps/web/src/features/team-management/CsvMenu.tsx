import { Anchor, Menu } from '@mantine/core';
import { MSG_TEAM_MANAGEMENT } from '@tlprt/contract';
import { useState } from 'react';
import { downloadCsv, type ExportKind } from './api';

/** Footer link "Get CSV list of all Users or Teams": a small menu, Users or Teams. */
export function CsvMenu() {
  const [busy, setBusy] = useState<ExportKind | null>(null);
  const get = async (kind: ExportKind) => {
    setBusy(kind);
    try {
      await downloadCsv(kind);
    } catch {
      // the popup already says what went wrong
    } finally {
      setBusy(null);
    }
  };
  return (
    <Menu position="top-start" shadow="md" withinPortal>
      <Menu.Target>
        <Anchor component="button" type="button" size="sm">
          {busy ? `Preparing ${busy}.csv…` : MSG_TEAM_MANAGEMENT.csvLink}
        </Anchor>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>CSV list of all</Menu.Label>
        <Menu.Item onClick={() => void get('users')} disabled={busy !== null}>
          Users
        </Menu.Item>
        <Menu.Item onClick={() => void get('teams')} disabled={busy !== null}>
          Teams
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
