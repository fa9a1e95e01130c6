import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import type { ContextModalProps } from '@mantine/modals';
import { useMutation } from '@tanstack/react-query';
import { ZPasswordConfirmRequest } from '@tlprt/contract';
import type { ReactNode } from 'react';
import { isApiError } from '../api/errors';
import { popupShown } from '../api/popups';
import { useContractForm } from '../form';

export interface PasswordConfirmProps {
  body?: ReactNode;
  onConfirm: (password: string) => Promise<unknown>;
  /** Failures other than a wrong password and those with a popup (e.g. "Unable to leave the team"). */
  onFailure?: (error: unknown) => void;
  confirmLabel?: string;
  danger?: boolean;
}

/**
 * Password confirmation of delete account, delete team and leave team (spec §5): "Required field" when
 * empty; a 400 from the server ("Incorrect password") or a 429 (too many wrong passwords) shows under
 * the field and clears on edit. Any other failure closes the modal and goes to `onFailure`.
 */
export function PasswordConfirmModal({ context, id, innerProps }: ContextModalProps<PasswordConfirmProps>) {
  const { body, onConfirm, onFailure, confirmLabel = 'Confirm', danger = true } = innerProps;
  const close = () => context.closeModal(id);
  const form = useContractForm(ZPasswordConfirmRequest, { initialValues: { password: '' } });
  const confirm = useMutation({
    mutationFn: onConfirm,
    onSuccess: close,
    onError: (err) => {
      if (isApiError(err) && (err.status === 400 || err.status === 429)) {
        form.setFieldError('password', err.fieldErrors.password ?? err.body.message);
        return;
      }
      close();
      if (popupShown(err)) return;
      onFailure?.(err);
    },
  });

  return (
    <form onSubmit={form.onSubmit(({ password }) => confirm.mutate(password))} noValidate>
      <Stack gap="md">
        {body}
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          {...form.getInputProps('password')}
          visibilityToggleButtonProps={{ 'aria-label': 'Toggle visibility' }}
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" color={danger ? 'red' : undefined} loading={confirm.isPending}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
