import { ActionIcon, Box, Button, Group, ScrollArea, Text, Tooltip } from '@mantine/core';
import { LIMITS, MSG_DOMAINS, type TDomain } from '@tlprt/contract';
import { useState } from 'react';
import { ConfirmModal } from '../../components/ConfirmModal';
import { IconCircleCheck, IconPlus, IconTrash } from '../../components/icons';
import { useSession } from '../session/SessionProvider';
import { usePolicy } from '../teams/policy';
import { currentDraft, isVerifiedDraft, selectDraft, useDraftSelection } from './draftStore';
import { useDeleteDomain } from './mutations';
import { useDomains } from './queries';

/**
 * The drafts of Add domain (spec §2 header on addDomains): each draft by URL with a delete icon (hidden
 * when the team is suspended), then "New domain" (disabled at 5 or more domains). In the header on wide
 * screens, on the page on phones.
 */
export function DraftNav({ variant }: { variant: 'header' | 'page' }) {
  const { currentTeam } = useSession();
  const team = currentTeam as NonNullable<typeof currentTeam>;
  const policy = usePolicy(team);
  const domains = useDomains(team.id);
  const sel = useDraftSelection();
  const remove = useDeleteDomain(team.id);
  const [toDelete, setToDelete] = useState<TDomain | null>(null);
  if (!domains.data) return null;
  const drafts = domains.data.drafts;
  const current = currentDraft(drafts, sel);
  const full = domains.data.data.length >= LIMITS.domainsPerTeam;
  const suspended = team.suspended === 1;
  const canDelete = policy.can('domains.manage');

  const items = (
    <Group
      gap={6}
      wrap={variant === 'page' ? 'wrap' : 'nowrap'}
      component="ul"
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-label="Draft domains"
    >
      {drafts.map((d) => {
        const selected = current?.id === d.id;
        return (
          <Box component="li" key={d.id} style={{ flexShrink: 0 }}>
            <Group
              gap={0}
              wrap="nowrap"
              style={{
                borderRadius: 999,
                border: `1px solid var(--mantine-color-${selected ? 'brand-5' : 'gray-3'})`,
                background: selected ? 'var(--mantine-color-brand-0)' : 'var(--mantine-color-white)',
              }}
            >
              <Button
                variant="subtle"
                color={selected ? 'brand' : 'gray'}
                radius="xl"
                size="compact-sm"
                px="sm"
                aria-current={selected ? 'true' : undefined}
                onClick={() => selectDraft(d.id)}
                leftSection={
                  isVerifiedDraft(d) ? (
                    <IconCircleCheck size={16} color="var(--mantine-color-teal-6)" aria-label="Verified" />
                  ) : undefined
                }
              >
                <Text size="sm" fw={selected ? 600 : 500} maw={180} truncate="end">
                  {d.url}
                </Text>
              </Button>
              {!suspended && (
                <Tooltip label="Delete draft">
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    radius="xl"
                    size="sm"
                    mr={4}
                    aria-label={`Delete draft ${d.url}`}
                    disabled={!canDelete}
                    onClick={() => setToDelete(d)}
                  >
                    <IconTrash size={14} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
          </Box>
        );
      })}
      <Box component="li" style={{ flexShrink: 0 }}>
        <Button
          variant={current === null ? 'light' : 'subtle'}
          radius="xl"
          size="compact-sm"
          leftSection={<IconPlus size={14} />}
          disabled={full}
          aria-current={current === null ? 'true' : undefined}
          onClick={() => selectDraft('new')}
        >
          {MSG_DOMAINS.newDomain}
        </Button>
      </Box>
    </Group>
  );

  return (
    <>
      {variant === 'header' ? (
        <ScrollArea type="never" maw="100%" style={{ height: '100%' }}>
          <Group h={60} wrap="nowrap" pl="md">
            {items}
          </Group>
        </ScrollArea>
      ) : (
        items
      )}
      <ConfirmModal
        opened={toDelete !== null}
        onClose={() => setToDelete(null)}
        title="Delete draft"
        danger
        loading={remove.isPending}
        onConfirm={() =>
          toDelete &&
          remove.mutate(toDelete.id, {
            onSuccess: () => selectDraft(null),
            onSettled: () => setToDelete(null),
          })
        }
      >
        <Text>{MSG_DOMAINS.deleteDraftConfirm}</Text>
        {toDelete && (
          <Text size="sm" c="dimmed">
            {toDelete.url}
          </Text>
        )}
      </ConfirmModal>
    </>
  );
}
