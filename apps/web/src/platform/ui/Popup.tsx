import { Button, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ContextModalProps } from '@mantine/modals';
import { MSG } from '@tlprt/contract';
import type { Popup } from '../api/popups';
import { IconAlert, IconServer } from './icons';
import { SupportContact } from './SupportContact';

function content(popup: Popup): { title: string; text?: string; support?: boolean; button: string } {
  switch (popup.kind) {
    case 'serverError':
      return { title: MSG.serverErrorTitle, text: MSG.serverErrorText, button: 'Ok' };
    case 'forbidden':
      return { title: MSG.forbidden, text: MSG.forbiddenText, button: 'OK' };
    case 'cantPerform':
      return { title: MSG.cantPerformTitle, text: MSG.cantPerformText, support: true, button: 'Ok' };
    case 'notice':
      return { title: popup.title, text: popup.text, button: 'OK' };
  }
}

/** A popup of api/popups.ts (server error, access forbidden, can't perform, notices). */
export function PopupModal({ context, id, innerProps: { popup } }: ContextModalProps<{ popup: Popup }>) {
  const c = content(popup);
  const ok = () => {
    context.closeModal(id);
    if (popup.kind === 'notice') popup.onOk?.();
  };
  return (
    <Stack align="center" ta="center" gap="sm" py="xs">
      <ThemeIcon
        size={48}
        radius="xl"
        variant="light"
        color={popup.kind === 'serverError' ? 'red' : 'orange'}
      >
        {popup.kind === 'serverError' ? <IconServer size={24} /> : <IconAlert size={24} />}
      </ThemeIcon>
      <Title order={2} fz="lg" id="popup-title">
        {c.title}
      </Title>
      {c.text && <Text c="dimmed">{c.text}</Text>}
      {c.support && <SupportContact />}
      <Group justify="center" mt="sm">
        <Button onClick={ok} miw={120} data-autofocus>
          {c.button}
        </Button>
      </Group>
    </Stack>
  );
}
