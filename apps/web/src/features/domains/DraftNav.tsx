import { ActionIcon, Box, Button, Group, ScrollArea, Text, Tooltip } from '@mantine/core';
import { LIMITS, MSG_DOMAINS, type TDomain } from '@tlprt/contract';
import { useDomains } from '../../platform/queries/domains';
import { usePolicy } from '../../platform/session/policy';
import { useSession } from '../../platform/session/SessionProvider';
import { openConfirm } from '../../platform/ui/AppModals';
import { IconCircleCheck, IconPlus, IconTrash } from '../../platform/ui/icons';
import { currentDraft, isVerifiedDraft, useDraftSelection } from './drafts';
import { useDeleteDomain } from './mutations';

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
  const [sel, selectDraft] = useDraftSelection();
  const remove = useDeleteDomain(team.id);
  if (!domains.data) return null;
  const drafts = domains.data.drafts;
  const current = currentDraft(drafts, sel);
  const full = domains.data.data.length >= LIMITS.domainsPerTeam;
  const suspended = team.suspended === 1;
  const canDelete = policy.can('domains.manage');
  const askDelete = (draft: TDomain) =>
    openConfirm({
      title: 'Delete draft',
      danger: true,
      onConfirm: async () => {
        await remove.mutateAsync(draft.id);
        selectDraft(null);
      },
      children: (
        <>
          <Text>{MSG_DOMAINS.deleteDraftConfirm}</Text>
          <Text size="sm" c="dimmed">
            {draft.url}
          </Text>
        </>
      ),
    });

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
                background: selected ? 'var(--mantine-color-brand-light)' : 'var(--app-surface)',
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
                    onClick={() => askDelete(d)}
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

  return variant === 'header' ? (
    <ScrollArea type="never" maw="100%" style={{ height: '100%' }}>
      <Group h={60} wrap="nowrap" pl="md">
        {items}
      </Group>
    </ScrollArea>
  ) : (
    items
  );
}
