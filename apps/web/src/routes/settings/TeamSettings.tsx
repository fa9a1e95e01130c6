import {
  Alert,
  Badge,
  Card,
  Group,
  Loader,
  NativeSelect,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  LIMITS,
  MSG,
  roleName,
  TEAM_VERSION_NAMES,
  type TTeamDetail,
  ZUpdateTeamRequest,
} from '@tlprt/contract';
import { TeamTags } from '../../features/team-management/TeamTags';
import { TeamTokensCard } from '../../features/team-tokens/TeamTokensCard';
import { useSetTimeZone, useSetVersion, useUpdateTeam } from '../../features/teams/mutations';
import { useTeamDetail } from '../../features/teams/queries';
import { DeleteTeamCard, LeaveTeamCard, SuspendTeamCard } from '../../features/teams/TeamDanger';
import { InviteCard, MembersCard } from '../../features/teams/TeamMembers';
import { useTimeZoneOptions } from '../../platform/queries/timeZones';
import { usePolicy } from '../../platform/session/policy';
import { useSession } from '../../platform/session/SessionProvider';
import { IconAlert } from '../../platform/ui/icons';
import { cardPadding, LoadFailedAlert, SuspendedBanner } from '../../platform/ui/Page';
import { SaveOnBlurInput } from '../../platform/ui/SaveOnBlurInput';

/** Team settings tab (spec §2): info, members, invite, my role, leave, delete, suspend. */
export function TeamSettings() {
  const { currentTeam } = useSession();
  const detail = useTeamDetail(currentTeam?.id ?? null);
  if (!currentTeam) return null;
  if (detail.isPending) {
    return (
      <Stack gap="lg" aria-busy="true" aria-label="Loading team">
        <Skeleton h={220} radius="lg" />
        <Skeleton h={260} radius="lg" />
      </Stack>
    );
  }
  if (!detail.data) {
    return <LoadFailedAlert />;
  }
  return <TeamSettingsBody team={detail.data} />;
}

function TeamSettingsBody({ team }: { team: TTeamDetail }) {
  const policy = usePolicy(team);
  return (
    <Stack gap="lg">
      {team.suspended === 1 && <SuspendedBanner />}
      {team.suspended !== 1 && team.statusId === 30 && (
        <Alert color="orange" variant="light" icon={<IconAlert />} title="Deletion requested">
          The team deletion is waiting for e-mail confirmation: settings, invitations and roles are locked.
        </Alert>
      )}
      <TeamInfoCard team={team} />
      <MembersCard team={team} />
      {policy.can('team.searchInvitations') && policy.ctx?.member && <InviteCard team={team} />}
      {policy.can('tokens.read') && <TeamTokensCard team={team} />}
      <MyRoleCard team={team} />
      <LeaveTeamCard team={team} />
      {policy.can('team.deleteView') && <DeleteTeamCard team={team} />}
      {policy.can('team.viewVersion') && <SuspendTeamCard team={team} />}
    </Stack>
  );
}

function TeamInfoCard({ team }: { team: TTeamDetail }) {
  const policy = usePolicy(team);
  const zoneOptions = useTimeZoneOptions(team.timezoneId);
  const setZone = useSetTimeZone(team.id);
  const setVersion = useSetVersion(team.id);
  const editable = policy.can('team.update');
  const zoneEditable = policy.can('team.setTimeZone');
  return (
    <Card withBorder p={cardPadding} component="section" aria-labelledby="team-info-title">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={2} fz="lg" id="team-info-title">
              Team info
            </Title>
            <Text size="sm" c="dimmed">
              {MSG.teamIdLabel(team.id)}
              {editable ? ' · Changes are saved when you leave a field.' : ''}
            </Text>
          </div>
          {team.suspended === 1 && (
            <Badge color="red" variant="light">
              Suspended
            </Badge>
          )}
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TeamField team={team} field="name" label="Team name" editable={editable} />
          <TeamField team={team} field="website" label="Website" editable={editable} />
          <NativeSelect
            label="Time zone"
            description="Statistics show times in it, unless a member picks their own in Profile settings."
            data={zoneOptions}
            value={String(team.timezoneId)}
            disabled={!zoneEditable || setZone.isPending}
            onChange={(e) => setZone.mutate(Number(e.currentTarget.value))}
            rightSection={setZone.isPending ? <Loader size={14} /> : undefined}
          />
          {policy.can('team.viewVersion') && (
            <NativeSelect
              label="Version"
              data={Object.entries(TEAM_VERSION_NAMES).map(([value, label]) => ({ value, label }))}
              value={String(team.version)}
              disabled={!policy.can('team.setVersion') || setVersion.isPending}
              onChange={(e) => setVersion.mutate(Number(e.currentTarget.value))}
            />
          )}
        </SimpleGrid>
        {policy.can('team.tag') && (
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              Tags
            </Text>
            <TeamTags team={{ ...team, members: team.users.length }} />
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/** Name or website: max 30, saved on blur (Admin only; spec §2, §5). */
function TeamField({
  team,
  field,
  label,
  editable,
}: {
  team: TTeamDetail;
  field: 'name' | 'website';
  label: string;
  editable: boolean;
}) {
  const update = useUpdateTeam(team.id);
  return (
    <SaveOnBlurInput
      label={label}
      field={field}
      saved={team[field]}
      editable={editable}
      mutation={update}
      schema={ZUpdateTeamRequest}
      maxLength={field === 'name' ? LIMITS.teamNameMax : LIMITS.websiteMax}
      placeholder={field === 'website' ? 'example.com' : undefined}
    />
  );
}

function MyRoleCard({ team }: { team: TTeamDetail }) {
  const { ctx } = usePolicy(team);
  const role = ctx?.role ?? null;
  return (
    <Card withBorder p={cardPadding} component="section">
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Title order={2} fz="lg">
            My role in this team
          </Title>
          <Text size="sm" c="dimmed">
            Your role decides what you can change in this team.
          </Text>
        </div>
        <Badge size="lg" variant="light" data-testid="my-role" style={{ flexShrink: 0 }}>
          {role !== null ? roleName(role) : '—'}
        </Badge>
      </Group>
    </Card>
  );
}
