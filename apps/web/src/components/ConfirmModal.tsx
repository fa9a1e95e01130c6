import { Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { AppModal } from './AppModal';

/** A yes/no modal (Confirm / Cancel); destructive ones get a red Confirm. */
export function ConfirmModal({
  opened,
  onClose,
  title,
  children,
  onConfirm,
  loading,
  danger,
  confirmLabel = 'Confirm',
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  children?: ReactNode;
  onConfirm: () => void;
  loading?: boolean;
  danger?: boolean;
  confirmLabel?: string;
}) {
  return (
    <AppModal opened={opened} onClose={onClose} title={title} size="md">
      <Stack gap="md">
        {children}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color={danger ? 'red' : undefined} onClick={onConfirm} loading={loading} data-autofocus>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}

/** An information modal with a single Ok (results, "unable to…" explanations). */
export function InfoModal({
  opened,
  onClose,
  title,
  children,
  color,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  children?: ReactNode;
  color?: string;
}) {
  return (
    <AppModal opened={opened} onClose={onClose} title={title} size="md">
      <Stack gap="md">
        {typeof children === 'string' ? <Text c={color}>{children}</Text> : children}
        <Group justify="flex-end">
          <Button onClick={onClose} miw={100} data-autofocus>
            Ok
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
