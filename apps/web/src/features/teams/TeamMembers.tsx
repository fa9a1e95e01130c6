import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Card,
  Group,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  ASSIGNABLE_ROLES,
  canManageInvitation,
  DEFAULT_INVITE_ROLE,
  InviteStatus,
  invitableRoles,
  MSG_TEAMS,
  roleColor,
  roleName,
  TIMINGS,
  type TTeamDetail,
  type TTeamMember,
  ZInvitationCreateRequest,
} from '@tlprt/contract';
import { refusalToShow, showPopup } from '../../platform/api/popups';
import { formError, useContractForm } from '../../platform/form';
import { usePolicy } from '../../platform/session/policy';
import { useSession } from '../../platform/session/SessionProvider';
import { openConfirm, openInfo } from '../../platform/ui/AppModals';
import { ProfileAvatar } from '../../platform/ui/avatars';
import { FormError } from '../../platform/ui/FormError';
import { IconTrash } from '../../platform/ui/icons';
import { cardPadding } from '../../platform/ui/Page';
import { useCreateInvitation, useResendInvitation, useRevokeInvitation } from './invitations/mutations';
import { useRemoveMember, useSetRole } from './mutations';

type Pending = { kind: 'remove'; member: TTeamMember } | { kind: 'revoke'; member: TTeamMember };

/** Manage members (spec §2): members with their role, invited people with resend/revoke. */
export function MembersCard({ team }: { team: TTeamDetail }) {
  const policy = usePolicy(team);
  const remove = useRemoveMember(team.id);
  const revoke = useRevokeInvitation(team.id);
  // The answer lists a pending invitee in `users` too (spec §3: users carry invite_status): each person
  // is shown once, a member among the members, an invitee among the invited.
  const members = team.users.filter((m) => m.invite_status !== InviteStatus.Pending);
  const invited = team.invited.filter((m) => m.invite_status === InviteStatus.Pending);
  const ask = (pending: Pending) => {
    const { member } = pending;
    openConfirm({
      title: pending.kind === 'revoke' ? 'Revoke invitation' : 'Remove member',
      danger: true,
      onConfirm: () =>
        pending.kind === 'remove'
          ? remove.mutateAsync(member.id)
          : member.invite_id !== null
            ? revoke.mutateAsync(member.invite_id)
            : undefined,
      children: (
        <Text>
          {pending.kind === 'revoke'
            ? `The invitation sent to ${member.email} will stop working.`
            : `${member.email} will be signed off this team and lose access to it.`}
        </Text>
      ),
    });
  };
  return (
    <Card withBorder p={cardPadding} component="section" aria-labelledby="members-title">
      <Stack gap="md">
        <div>
          <Title order={2} fz="lg" id="members-title">
            Members
          </Title>
          <Text size="sm" c="dimmed">
            {team.members} {team.members === 1 ? 'member' : 'members'}
            {invited.length > 0 ? ` · ${invited.length} invited` : ''}
          </Text>
          {policy.ctx?.member === false && (
            <Text size="sm" c="dimmed" mt={4} data-testid="members-read-only">
              {MSG_TEAMS.membersReadOnly}
            </Text>
          )}
        </div>
        <Stack gap={0} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Team members">
          {members.map((m, i) => (
            <MemberRow key={`u${m.id}`} team={team} member={m} first={i === 0} onAsk={ask} />
          ))}
          {invited.map((m, i) => (
            <MemberRow
              key={`i${m.invite_id ?? m.id}`}
              team={team}
              member={m}
              first={members.length === 0 && i === 0}
              onAsk={ask}
            />
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}

function MemberRow({
  team,
  member,
  first,
  onAsk,
}: {
  team: TTeamDetail;
  member: TTeamMember;
  first: boolean;
  onAsk: (p: Pending) => void;
}) {
  const { user } = useSession();
  const policy = usePolicy(team);
  const setRole = useSetRole(team.id);
  const resend = useResendInvitation(team.id);
  const isInvite = member.invite_status === InviteStatus.Pending;
  const isMe = member.id === user.id && !isInvite;
  const mayManageInvite =
    isInvite && policy.ctx !== null && canManageInvitation(policy.ctx, member.inviting_user);
  // Spec §6: the dropdown offers only Admin, Key master, Viewer. Another role (Billing master) is shown
  // as the current value by a hidden placeholder option, so the member keeps it until one is picked.
  const otherRole = ASSIGNABLE_ROLES.includes(member.roles) ? null : member.roles;

  const changeRole = (role: number) =>
    setRole.mutate(
      { userId: member.id, role },
      {
        onError: (e) => {
          if (refusalToShow(e)) showPopup({ kind: 'notice', title: e.body.message });
        },
      },
    );

  return (
    <Box component="li" py="sm" style={first ? undefined : { borderTop: '1px solid var(--app-border)' }}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: '1 1 240px' }}>
          <ProfileAvatar image={member.image} size={38} />
          <Box miw={0}>
            <Group gap={6} wrap="nowrap">
              <Text fw={600} truncate>
                {member.name.trim() || member.email.split('@')[0]}
              </Text>
              {isMe && (
                <Badge size="xs" variant="light">
                  You
                </Badge>
              )}
              {isInvite && (
                <Badge size="xs" color="orange" variant="light">
                  {MSG_TEAMS.invited}
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed" truncate>
              {member.email}
            </Text>
          </Box>
        </Group>
        <Group gap="xs" wrap="nowrap">
          {isInvite ? (
            <>
              <Badge color={roleColor(member.roles)} variant="light" size="lg">
                {roleName(member.roles)}
              </Badge>
              {mayManageInvite && member.invite_id !== null && (
                <>
                  <Button
                    size="xs"
                    variant="default"
                    loading={resend.isPending}
                    onClick={() =>
                      member.invite_id !== null &&
                      resend.mutate(member.invite_id, {
                        onSuccess: () => showPopup({ kind: 'notice', title: MSG_TEAMS.inviteSent }),
                      })
                    }
                  >
                    Resend
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    onClick={() => onAsk({ kind: 'revoke', member })}
                  >
                    Revoke
                  </Button>
                </>
              )}
            </>
          ) : (
            <>
              <NativeSelect
                aria-label={`Role of ${member.email}`}
                size="sm"
                w={150}
                value={String(member.roles)}
                disabled={!policy.can('team.setRole') || setRole.isPending}
                onChange={(e) => changeRole(Number(e.currentTarget.value))}
              >
                {otherRole !== null && (
                  <option value={String(otherRole)} disabled hidden>
                    {roleName(otherRole)}
                  </option>
                )}
                {ASSIGNABLE_ROLES.map((r) => (
                  <option key={r} value={String(r)}>
                    {roleName(r)}
                  </option>
                ))}
              </NativeSelect>
              {policy.can('team.removeMember') && !isMe ? (
                <Tooltip label="Remove from team">
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={`Remove ${member.email}`}
                    onClick={() => onAsk({ kind: 'remove', member })}
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                </Tooltip>
              ) : (
                policy.can('team.removeMember') && <Box w={34} aria-hidden="true" />
              )}
            </>
          )}
        </Group>
      </Group>
    </Box>
  );
}

/** What the invite form types: the e-mail and the role (the link bases are added by the call). */
const INVITE_INPUT = ZInvitationCreateRequest.pick({ invited_email: true, role: true });

/** Invite form (spec §2, §5): e-mail and role (default Viewer; options from the inviter's role). */
export function InviteCard({ team }: { team: TTeamDetail }) {
  const policy = usePolicy(team);
  const roles = invitableRoles(policy.ctx?.role ?? null);
  const form = useContractForm(INVITE_INPUT, {
    initialValues: { invited_email: '', role: String(DEFAULT_INVITE_ROLE) },
    requiredFields: ['invited_email'],
  });
  const create = useCreateInvitation(team.id);
  const disabled = !policy.can('team.invite');

  const submit = form.onSubmit(({ invited_email, role }) =>
    create.mutate(
      { email: invited_email, role },
      {
        onSuccess: (r) => {
          form.reset();
          // Spec §4: the success message clears itself after 3 seconds.
          openInfo({
            title: 'Invitation sent',
            color: 'teal',
            autoCloseMs: TIMINGS.successMessageMs,
            children: r.message || MSG_TEAMS.inviteSent,
          });
        },
        onError: (err) => {
          if (refusalToShow(err))
            openInfo({
              title: 'Invitation not sent',
              color: 'red',
              children: Object.values(err.fieldErrors)[0] ?? err.body.message,
            });
        },
      },
    ),
  );

  return (
    <Card withBorder p={cardPadding} component="section" aria-labelledby="invite-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <div>
            <Title order={2} fz="lg" id="invite-title">
              Invite a member
            </Title>
            <Text size="sm" c="dimmed">
              We will e-mail an invitation link valid for 7 days.
            </Text>
          </div>
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              label="E-mail"
              type="email"
              placeholder="colleague@example.com"
              {...form.getInputProps('invited_email', { withError: false })}
              disabled={disabled}
              style={{ flex: '1 1 240px' }}
            />
            <NativeSelect
              label="Role"
              {...form.getInputProps('role')}
              disabled={disabled}
              data={roles.map((r) => ({ value: String(r), label: roleName(r) }))}
              w={{ base: '100%', xs: 170 }}
            />
            <Box pt={{ base: 0, xs: 25 }} w={{ base: '100%', xs: 'auto' }}>
              <Button type="submit" loading={create.isPending} disabled={disabled} fullWidth>
                Invite
              </Button>
            </Box>
          </Group>
          {/* The e-mail's message goes on the form's line, as the other invite messages do. */}
          <FormError message={formError(form) ?? asText(form.errors.invited_email)} />
        </Stack>
      </form>
    </Card>
  );
}

const asText = (e: unknown) => (typeof e === 'string' ? e : null);
