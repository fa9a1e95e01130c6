import { Button, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LIMITS, WEB_PATHS, ZCreateAccountForm } from '@tlprt/contract';
import { useNavigate } from 'react-router';
import { api } from '../../platform/api/client';
import { isApiError } from '../../platform/api/errors';
import { formError, showApiError, trimmed, useContractForm } from '../../platform/form';
import { sessionKeys } from '../../platform/session/queries';
import { setStoredTeam } from '../../platform/session/storage';
import { FormError } from '../../platform/ui/FormError';

const FIELDS = ['name', 'surname', 'workspace'] as const;

/** /createAccount (spec §2): name and surname onto the user, then the first team (workspace). */
export function CreateAccountForm({ userId }: { userId: number }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useContractForm(ZCreateAccountForm, {
    initialValues: { name: '', surname: '', workspace: '' },
    toInput: (v) => trimmed(v),
    requiredFields: FIELDS,
  });
  const updateUser = useMutation({
    mutationFn: ({ name, surname }: { name: string; surname: string }) =>
      api.updateUser(userId, { id: userId, name, surname }),
    onError: (error) => showApiError(form, error, ['name', 'surname']),
  });
  const createTeam = useMutation({
    mutationFn: (name: string) => api.createTeam({ name }),
    onSuccess: async (team) => {
      setStoredTeam(team.data);
      await queryClient.invalidateQueries({ queryKey: sessionKeys.all });
      navigate(WEB_PATHS.settings, { replace: true });
    },
    onError: (error) => {
      // the team's "name" field is the form's workspace
      if (isApiError(error) && error.fieldErrors.name) form.setErrors({ workspace: error.fieldErrors.name });
      else showApiError(form, error, []);
    },
  });

  const submit = form.onSubmit((values) =>
    updateUser.mutate(values, { onSuccess: () => createTeam.mutate(values.workspace) }),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          autoComplete="given-name"
          size="md"
          maxLength={LIMITS.nameMax}
          {...form.getInputProps('name')}
        />
        <TextInput
          label="Last name"
          autoComplete="family-name"
          size="md"
          maxLength={LIMITS.surnameMax}
          {...form.getInputProps('surname')}
        />
        <TextInput
          label="Workspace name"
          autoComplete="organization"
          size="md"
          maxLength={LIMITS.teamNameMax}
          {...form.getInputProps('workspace')}
        />
        <FormError message={formError(form)} />
        <Button type="submit" size="md" fullWidth loading={updateUser.isPending || createTeam.isPending}>
          Start
        </Button>
      </Stack>
    </form>
  );
}
