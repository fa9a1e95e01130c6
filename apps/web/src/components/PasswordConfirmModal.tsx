import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { MSG } from '@tlprt/contract';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { isApiError } from '../api/errors';
import { AppModal } from './AppModal';

/**
 * Password confirmation of delete account, delete team and leave team (spec §5): "Required field" when
 * empty; a 400 from the server (e.g. "Incorrect password") or a 429 (too many wrong passwords) shows
 * under the field and clears on edit.
 * Any other failure goes to `onFailure` (the caller decides: "Unable to leave the team"…).
 */
export function PasswordConfirmModal({
  opened,
  onClose,
  title,
  children,
  onConfirm,
  onFailure,
  confirmLabel = 'Confirm',
  danger = true,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  children?: ReactNode;
  onConfirm: (password: string) => Promise<unknown>;
  onFailure?: (error: unknown) => void;
  confirmLabel?: string;
  danger?: boolean;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!opened) {
      setPassword('');
      setError(null);
      setBusy(false);
    }
  }, [opened]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (password === '') {
      setError(MSG.required);
      return;
    }
    setBusy(true);
    try {
      await onConfirm(password);
      onClose();
    } catch (err) {
      setBusy(false);
      // 400 "Incorrect password", or 429 after too many wrong ones: said under the field, form kept.
      if (isApiError(err) && (err.status === 400 || err.status === 429)) {
        setError(err.fieldErrors.password ?? err.body.message);
        return;
      }
      if (
        isApiError(err) &&
        (err.status === 0 || err.status >= 500 || err.status === 401 || err.status === 403)
      ) {
        onClose(); // the popup of api/popups.ts says what happened
        return;
      }
      onClose();
      onFailure?.(err);
    }
  };

  return (
    <AppModal opened={opened} onClose={onClose} title={title} size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {children}
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => {
              setPassword(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            visibilityToggleButtonProps={{ 'aria-label': 'Toggle visibility' }}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color={danger ? 'red' : undefined} loading={busy}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
