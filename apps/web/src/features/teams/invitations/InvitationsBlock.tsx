import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { LIMITS, MSG_TEAMS, roleColor, roleName, type TInvitation } from '@tlprt/contract';
import { useState } from 'react';
import { useSession } from '../../../platform/session/SessionProvider';
import { useSettingsTab } from '../../../platform/settings/settingsTab';
import { IconAlert, IconCircleCheck, IconInbox } from '../../../platform/ui/icons';
import { useAnswerInvitation } from './mutations';
import { useMyInvitations } from './queries';

type Outcome = 'confirmed' | 'declined' | 'failed';
/** A card being answered (no outcome yet) or answered: kept here, not in the card, because the answer
 *  refreshes the session and the invitations (and a live event does too) before the card learns its
 *  outcome; the invitation is then no longer pending and would otherwise vanish with its card. */
type Answered = { invitation: TInvitation; outcome?: Outcome };

/**
 * Invitations block (spec §2): pending invitations, 3 then "Show all"/"Hide"; an answered card shows
 * its outcome until hidden. The no-team banner when there is neither a team nor an invitation.
 */
export function InvitationsBlock() {
  const { teams } = useSession();
  const invitations = useMyInvitations();
  const [answered, setAnswered] = useState<Answered[]>([]);
  const [hidden, setHidden] = useState<Set<number>>(new Set());
  const [showAll, setShowAll] = useState(false);

  if (invitations.isPending) return <Skeleton h={120} radius="lg" aria-label="Loading invitations" />;
  const pending = (invitations.data ?? []).filter((i) => !answered.some((a) => a.invitation.id === i.id));
  const cards: Answered[] = [...answered, ...pending.map((invitation) => ({ invitation }))].filter(
    (c) => !hidden.has(c.invitation.id),
  );

  if (cards.length === 0) {
    if (teams.length > 0 || !invitations.isSuccess) return null;
    return (
      <Alert color="blue" variant="light" icon={<IconInbox />} data-testid="no-team-banner">
        {MSG_TEAMS.noTeamBanner}
      </Alert>
    );
  }
  const visible = showAll ? cards : cards.slice(0, LIMITS.invitationsShownFirst);
  const hide = (id: number) => setHidden((h) => new Set(h).add(id));
  const record = (invitation: TInvitation, outcome?: Outcome) =>
    setAnswered((a) => [...a.filter((x) => x.invitation.id !== invitation.id), { invitation, outcome }]);

  return (
    <Card withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="invitations-title">
      <Stack gap="md">
        <Group justify="space-between">
          <div>
            <Title order={2} fz="lg" id="invitations-title">
              Invitations
            </Title>
            <Text size="sm" c="dimmed">
              Teams that invited you to join them.
            </Text>
          </div>
          <Badge variant="light" size="lg">
            {pending.length}
          </Badge>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {visible.map((c) => (
            <InvitationCard
              key={c.invitation.id}
              invitation={c.invitation}
              outcome={c.outcome}
              onAnswering={() => record(c.invitation)}
              onOutcome={(o) => record(c.invitation, o)}
              onHide={() => hide(c.invitation.id)}
            />
          ))}
        </SimpleGrid>
        {cards.length > LIMITS.invitationsShownFirst && (
          <Group justify="center">
            <Button variant="subtle" onClick={() => setShowAll((s) => !s)}>
              {showAll ? MSG_TEAMS.hide : MSG_TEAMS.showAll}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function InvitationCard({
  invitation,
  outcome,
  onAnswering,
  onOutcome,
  onHide,
}: {
  invitation: TInvitation;
  outcome: Outcome | undefined;
  onAnswering: () => void;
  onOutcome: (o: Outcome) => void;
  onHide: () => void;
}) {
  const { selectTeam } = useSession();
  const [, setSettingsTab] = useSettingsTab();
  const answer = useAnswerInvitation();
  const teamName = invitation.team.name || `Team ID ${invitation.team.id}`;
  const respond = (accept: boolean) => {
    onAnswering();
    // The promise, not mutate's callbacks: those are dropped if this card re-mounts meanwhile.
    answer.mutateAsync({ teamId: invitation.team.id, inviteId: invitation.id, accept }).then(
      () => onOutcome(accept ? 'confirmed' : 'declined'),
      () => onOutcome('failed'),
    );
  };

  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      data-testid="invitation-card"
      aria-label={`Invitation to ${teamName}`}
    >
      {outcome === 'confirmed' ? (
        <Stack gap="xs" align="flex-start">
          <Group gap={6} c="teal">
            <IconCircleCheck size={20} />
            <Text fw={700}>{MSG_TEAMS.inviteCongratsTitle}</Text>
          </Group>
          <Text size="sm">
            You have joined <b>{teamName}</b>. {MSG_TEAMS.inviteCongratsText}
          </Text>
          <Group gap="xs" mt={4}>
            <Button size="xs" variant="default" onClick={onHide}>
              {MSG_TEAMS.inviteLater}
            </Button>
            <Button
              size="xs"
              onClick={() => {
                selectTeam(invitation.team.id);
                setSettingsTab(1);
                onHide();
              }}
            >
              {MSG_TEAMS.inviteGo}
            </Button>
          </Group>
        </Stack>
      ) : outcome === 'declined' ? (
        <Stack gap="xs" align="flex-start">
          <Text fw={700}>{MSG_TEAMS.declineAccepted}</Text>
          <Text size="sm" c="dimmed">
            You will not join {teamName}.
          </Text>
          <Button size="xs" onClick={onHide}>
            Ok
          </Button>
        </Stack>
      ) : outcome === 'failed' ? (
        <Stack gap="xs" align="flex-start">
          <Group gap={6} c="red">
            <IconAlert size={20} />
            <Text fw={700}>{MSG_TEAMS.inviteFailedTitle}</Text>
          </Group>
          <Text size="sm">{MSG_TEAMS.inviteFailedText}</Text>
          <Button size="xs" onClick={onHide}>
            Ok
          </Button>
        </Stack>
      ) : (
        <Stack gap="xs">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={700} truncate>
              {teamName}
            </Text>
            <Badge
              color={roleColor(invitation.role)}
              variant="light"
              data-testid="invitation-role"
              data-color={roleColor(invitation.role)}
            >
              {roleName(invitation.role)}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed" truncate>
            Invited by {invitation.inviting_user.email}
          </Text>
          <Group gap="xs" mt={4}>
            <Button
              size="xs"
              loading={answer.isPending && answer.variables?.accept}
              disabled={answer.isPending}
              onClick={() => respond(true)}
            >
              Accept
            </Button>
            <Button
              size="xs"
              variant="default"
              loading={answer.isPending && !answer.variables?.accept}
              disabled={answer.isPending}
              onClick={() => respond(false)}
            >
              Decline
            </Button>
          </Group>
        </Stack>
      )}
    </Paper>
  );
}
