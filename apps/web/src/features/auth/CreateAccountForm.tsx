import { Button, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { LIMITS, validateForm, WEB_PATHS, ZCreateAccountForm } from '@tlprt/contract';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { isApiError } from '../../api/errors';
import { FormError } from '../../components/FormError';
import { trimmed, useForm } from '../../components/useForm';
import { sessionKeys } from '../session/queries';
import { setStoredTeam } from '../session/storage';

const FIELDS = ['name', 'surname', 'workspace'] as const;

/** /createAccount (spec §2): name and surname onto the user, then the first team (workspace). */
export function CreateAccountForm({ userId }: { userId: number }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const f = useForm({ name: '', surname: '', workspace: '' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = validateForm(ZCreateAccountForm, trimmed(f.values), { requiredFields: [...FIELDS] });
    if (!result.ok) return f.showValidation(result);
    f.setSubmitting(true);
    try {
      await api.updateUser(userId, { id: userId, name: result.data.name, surname: result.data.surname });
    } catch (error) {
      f.setSubmitting(false);
      return f.showApiError(error, ['name', 'surname']);
    }
    try {
      const team = await api.createTeam({ name: result.data.workspace });
      setStoredTeam(team.data);
      await queryClient.invalidateQueries({ queryKey: sessionKeys.all });
      navigate(WEB_PATHS.settings, { replace: true });
    } catch (error) {
      f.setSubmitting(false);
      // the team's "name" field is the form's workspace
      if (isApiError(error) && error.fieldErrors.name) {
        f.showValidation({ fieldErrors: { workspace: error.fieldErrors.name } });
      } else f.showApiError(error, []);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          autoComplete="given-name"
          size="md"
          maxLength={LIMITS.nameMax}
          value={f.values.name}
          onChange={(e) => f.setField('name', e.currentTarget.value)}
          error={f.errors.name}
        />
        <TextInput
          label="Last name"
          autoComplete="family-name"
          size="md"
          maxLength={LIMITS.surnameMax}
          value={f.values.surname}
          onChange={(e) => f.setField('surname', e.currentTarget.value)}
          error={f.errors.surname}
        />
        <TextInput
          label="Workspace name"
          autoComplete="organization"
          size="md"
          maxLength={LIMITS.teamNameMax}
          value={f.values.workspace}
          onChange={(e) => f.setField('workspace', e.currentTarget.value)}
          error={f.errors.workspace}
        />
        <FormError message={f.formError} />
        <Button type="submit" size="md" fullWidth loading={f.submitting}>
          Start
        </Button>
      </Stack>
    </form>
  );
}
