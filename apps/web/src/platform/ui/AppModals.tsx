import { Button, Group, type ModalProps, Stack, Text } from '@mantine/core';
import { randomId, useTimeout } from '@mantine/hooks';
import { type ContextModalProps, ModalsProvider, modals } from '@mantine/modals';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PasswordConfirmModal, type PasswordConfirmProps } from './PasswordConfirm';
import { PopupModal } from './Popup';

interface ConfirmProps {
  body?: ReactNode;
  /** A promise keeps Confirm loading until it settles; the modal closes then, whatever the outcome
   *  (failures have their popups, api/popups.ts). */
  onConfirm: () => unknown;
  danger?: boolean;
  confirmLabel?: string;
}

function ConfirmModal({ context, id, innerProps }: ContextModalProps<ConfirmProps>) {
  const { body, onConfirm, danger, confirmLabel = 'Confirm' } = innerProps;
  const close = () => context.closeModal(id);
  const confirm = useMutation({ mutationFn: async () => onConfirm(), onSettled: close });
  return (
    <Stack gap="md">
      {body}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={close}>
          Cancel
        </Button>
        <Button
          color={danger ? 'red' : undefined}
          onClick={() => confirm.mutate()}
          loading={confirm.isPending}
          data-autofocus
        >
          {confirmLabel}
        </Button>
      </Group>
    </Stack>
  );
}

interface InfoProps {
  body: ReactNode;
  color?: string;
  /** Closes by itself after this long (spec §4: success messages clear after 3 seconds). */
  autoCloseMs?: number;
}

function InfoModal({ context, id, innerProps }: ContextModalProps<InfoProps>) {
  const { body, color, autoCloseMs } = innerProps;
  useTimeout(() => context.closeModal(id), autoCloseMs ?? 0, { autoInvoke: autoCloseMs !== undefined });
  return (
    <Stack gap="md">
      {typeof body === 'string' ? <Text c={color}>{body}</Text> : body}
      <Group justify="flex-end">
        <Button onClick={() => context.closeModal(id)} miw={100} data-autofocus>
          Ok
        </Button>
      </Group>
    </Stack>
  );
}

// The manager shows one modal at a time and reuses the component of the one below when the same kind
// is stacked; keying by id gives each modal its own state (form, pending call).
const appModals = {
  confirm: (props: ContextModalProps<ConfirmProps>) => <ConfirmModal key={props.id} {...props} />,
  info: (props: ContextModalProps<InfoProps>) => <InfoModal key={props.id} {...props} />,
  password: (props: ContextModalProps<PasswordConfirmProps>) => (
    <PasswordConfirmModal key={props.id} {...props} />
  ),
  popup: PopupModal,
};

declare module '@mantine/modals' {
  interface MantineModalsOverride {
    modals: typeof appModals;
  }
}

/**
 * Every modal of the app opens in Mantine's modals manager, so that one call closes them all (spec §4,
 * api/popups.ts closeAllModals). Modal content renders here, above the router and the session: it gets
 * what it needs from the caller.
 */
export function AppModalsProvider({ children }: { children: ReactNode }) {
  return <ModalsProvider modals={appModals}>{children}</ModalsProvider>;
}

type Titled = { title: string };

/** A yes/no modal (Cancel / Confirm); destructive ones get a red Confirm. */
export function openConfirm({
  title,
  children,
  ...innerProps
}: Titled & ConfirmProps & { children?: ReactNode }) {
  modals.openContextModal({ modal: 'confirm', title, innerProps: { ...innerProps, body: children } });
}

/** An information modal with a single Ok (results, "unable to…" explanations). */
export function openInfo({
  title,
  children,
  ...innerProps
}: Titled & Omit<InfoProps, 'body'> & { children: ReactNode }) {
  modals.openContextModal({ modal: 'info', title, innerProps: { ...innerProps, body: children } });
}

/** Password confirmation of delete account, delete team and leave team (spec §5). */
export function openPasswordConfirm({
  title,
  children,
  ...innerProps
}: Titled & Omit<PasswordConfirmProps, 'body'> & { children?: ReactNode }) {
  modals.openContextModal({ modal: 'password', title, innerProps: { ...innerProps, body: children } });
}

/** A modal of its own content; `render` gets the function that closes it. `closeOnClickOutside` false
 *  for content that cannot be shown again (a new secret). */
export function openAppModal({
  title,
  size,
  closeOnClickOutside,
  render,
}: Titled & Pick<ModalProps, 'size' | 'closeOnClickOutside'> & { render: (close: () => void) => ReactNode }) {
  const modalId = randomId();
  modals.open({
    modalId,
    title,
    size,
    ...(closeOnClickOutside === undefined ? {} : { closeOnClickOutside }),
    children: render(() => modals.close(modalId)),
  });
}
