import { Button, Group, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { useSession } from '../../platform/session/SessionProvider';
import { openAppModal } from '../../platform/ui/AppModals';
import { PROFILE_IMAGE_COUNT, ProfileAvatar } from '../../platform/ui/avatars';
import { IconPencil } from '../../platform/ui/icons';
import { useUpdateUser } from './mutations';

/** Profile image (spec §2): 12 default images, index 0 the placeholder, saved as the index. */
export function ProfileImagePicker({ locked }: { locked: boolean }) {
  const { user } = useSession();
  const open = () =>
    openAppModal({
      title: 'Profile image',
      size: 'lg',
      render: (close) => <ImageChoice userId={user.id} image={user.image} onClose={close} />,
    });
  return (
    <Group gap="md" wrap="nowrap">
      <ProfileAvatar image={user.image} size={64} label="Your profile image" />
      {!locked && (
        <Button variant="default" size="xs" leftSection={<IconPencil size={14} />} onClick={open}>
          Change image
        </Button>
      )}
    </Group>
  );
}

function ImageChoice({ userId, image, onClose }: { userId: number; image: number; onClose: () => void }) {
  const [choice, setChoice] = useState(image);
  const update = useUpdateUser(userId);
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Choose one of the default images.
      </Text>
      <SimpleGrid cols={{ base: 4, xs: 6 }} spacing="sm" role="radiogroup" aria-label="Profile images">
        {Array.from({ length: PROFILE_IMAGE_COUNT }, (_, i) => {
          const selected = choice === i;
          return (
            <UnstyledButton
              // biome-ignore lint/suspicious/noArrayIndexKey: the index is the image id
              key={i}
              role="radio"
              aria-checked={selected}
              aria-label={i === 0 ? 'Default image' : `Image ${i}`}
              onClick={() => setChoice(i)}
              style={{
                borderRadius: '50%',
                padding: 3,
                justifySelf: 'center',
                outline: selected ? '3px solid var(--mantine-color-brand-6)' : '3px solid transparent',
                outlineOffset: 1,
              }}
            >
              <ProfileAvatar image={i} size={56} />
            </UnstyledButton>
          );
        })}
      </SimpleGrid>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          loading={update.isPending}
          onClick={() => update.mutate({ image: choice }, { onSuccess: onClose })}
        >
          Save
        </Button>
      </Group>
    </Stack>
  );
}
