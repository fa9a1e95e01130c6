import { Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { canEditOwnProfile, LIMITS, ZUpdateUserRequest } from '@tlprt/contract';
import { formatUtc } from '../../platform/dates';
import { useSession } from '../../platform/session/SessionProvider';
import { IconClock } from '../../platform/ui/icons';
import { SaveOnBlurInput } from '../../platform/ui/SaveOnBlurInput';
import { useUpdateUser } from './mutations';
import { ProfileImagePicker } from './ProfileImagePicker';

type Field = 'name' | 'surname' | 'phone';
const MAX: Record<Field, number> = {
  name: LIMITS.nameMax,
  surname: LIMITS.surnameMax,
  phone: LIMITS.phoneMax,
};

/** Profile details (spec §2): name, surname, phone saved on losing focus; e-mail; password-changed date. */
export function ProfileDetails() {
  const { user } = useSession();
  const locked = !canEditOwnProfile(user);
  return (
    <Card withBorder p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
          <div>
            <Title order={2} fz="lg">
              Profile details
            </Title>
            <Text size="sm" c="dimmed">
              Changes are saved when you leave a field.
            </Text>
          </div>
          <ProfileImagePicker locked={locked} />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <ProfileField label="Name" field="name" locked={locked} />
          <ProfileField label="Surname" field="surname" locked={locked} />
          <ProfileField label="Phone" field="phone" locked={locked} inputMode="numeric" type="tel" />
          <TextInput label="E-mail" value={user.email} readOnly variant="filled" />
        </SimpleGrid>
        <Group gap={6} c="dimmed" wrap="nowrap" align="flex-start">
          <IconClock size={16} style={{ flexShrink: 0, marginTop: 2 }} />
          <Text size="sm" data-testid="password-changed">
            {user.changePasswordAt
              ? `Password last changed ${formatUtc(user.changePasswordAt)}`
              : 'Password has not been changed yet'}
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}

function ProfileField({
  label,
  field,
  locked,
  inputMode,
  type,
}: {
  label: string;
  field: Field;
  locked: boolean;
  inputMode?: 'numeric';
  type?: string;
}) {
  const { user } = useSession();
  const update = useUpdateUser(user.id);
  return (
    <SaveOnBlurInput
      label={label}
      field={field}
      saved={user[field]}
      editable={!locked}
      mutation={update}
      schema={ZUpdateUserRequest}
      maxLength={MAX[field]}
      inputMode={inputMode}
      type={type}
      autoComplete={field === 'phone' ? 'tel' : field === 'name' ? 'given-name' : 'family-name'}
    />
  );
}
