import { ActionIcon, Badge, Group, TextInput } from '@mantine/core';
import { LIMITS, type TTeamListItem } from '@tlprt/contract';
import { useState } from 'react';
import { isApiError } from '../../api/errors';
import { IconX } from '../../components/icons';
import { useTagAdd, useTagRemove } from './mutations';
import { teamName } from './teamView';

/** A team's tags (global per team): each with a delete "x", and an input that adds one on Enter. */
export function TeamTags({ team, editable = true }: { team: TTeamListItem; editable?: boolean }) {
  const add = useTagAdd();
  const remove = useTagRemove();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const label = teamName(team);

  const submit = () => {
    const tag = draft.trim();
    if (!tag) return;
    if (team.tags.includes(tag)) {
      setError('This tag already exists');
      return;
    }
    add.mutate(
      { id: team.id, tag },
      {
        onSuccess: () => setDraft(''),
        onError: (e) => setError(isApiError(e) ? (e.fieldErrors.tag ?? e.message) : 'Could not add the tag'),
      },
    );
  };

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
          value={draft}
          maxLength={LIMITS.tagMax}
          error={error}
          disabled={add.isPending}
          onClick={(e) => e.stopPropagation()}
          onChange={(e) => {
            setDraft(e.currentTarget.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            e.stopPropagation();
            if (e.key === 'Enter') {
              e.preventDefault();
              submit();
            }
          }}
        />
      )}
    </Group>
  );
}
