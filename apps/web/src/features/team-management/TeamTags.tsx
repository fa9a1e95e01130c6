import { ActionIcon, Badge, Group, TextInput } from '@mantine/core';
import { LIMITS, type TTeamListItem, ZTagRequest } from '@tlprt/contract';
import { isApiError } from '../../platform/api/errors';
import { useContractForm } from '../../platform/form';
import { IconX } from '../../platform/ui/icons';
import { useTagAdd, useTagRemove } from './mutations';
import { teamName } from './teamView';

/** A team's tags (global per team): each with a delete "x", and an input that adds one on Enter. */
export function TeamTags({ team, editable = true }: { team: TTeamListItem; editable?: boolean }) {
  const add = useTagAdd();
  const remove = useTagRemove();
  const form = useContractForm(ZTagRequest, { initialValues: { tag: '' } });
  const label = teamName(team);

  // Enter on an empty input does nothing (no "Required field" in the middle of a card).
  const submit = form.onSubmit(({ tag }) => {
    if (team.tags.includes(tag)) {
      form.setFieldError('tag', 'This tag already exists');
      return;
    }
    add.mutate(
      { id: team.id, tag },
      {
        onSuccess: () => form.reset(),
        onError: (e) =>
          form.setFieldError(
            'tag',
            isApiError(e) ? (e.fieldErrors.tag ?? e.message) : 'Could not add the tag',
          ),
      },
    );
  });

  return (
    <Group gap={6} wrap="wrap" align="center">
      {team.tags.map((tag) => (
        <Badge
          key={tag}
          variant="light"
          color="indigo"
          radius="sm"
          tt="none"
          rightSection={
            editable ? (
              <ActionIcon
                size="xs"
                variant="transparent"
                color="indigo"
                aria-label={`Delete tag ${tag} of ${label}`}
                onClick={(e) => {
                  e.stopPropagation();
                  remove.mutate({ id: team.id, tag });
                }}
              >
                <IconX size={12} />
              </ActionIcon>
            ) : null
          }
        >
          {tag}
        </Badge>
      ))}
      {editable && (
        <TextInput
          size="xs"
          w={130}
          placeholder="+ Add tag"
          aria-label={`Add a tag to ${label}`}
          {...form.getInputProps('tag')}
          maxLength={LIMITS.tagMax}
          disabled={add.isPending}
          onClick={(e) => e.stopPropagation()}
          onKeyDown={(e) => {
            e.stopPropagation();
            if (e.key === 'Enter') {
              e.preventDefault();
              if (form.values.tag.trim() !== '') submit();
            }
          }}
        />
      )}
    </Group>
  );
}
