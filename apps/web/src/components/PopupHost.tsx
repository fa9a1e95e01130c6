import { Button, Group, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { MSG } from '@tlprt/contract';
import { confirmPopup, dismissPopup, type Popup, usePopup } from '../api/popups';
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

/** Renders the popup of api/popups.ts (server error, access forbidden, can't perform, notices). */
export function PopupHost() {
  const popup = usePopup();
  const c = popup ? content(popup) : null;
  return (
    <Modal
      opened={popup !== null}
      onClose={dismissPopup}
      withCloseButton={false}
      size="sm"
      centered
      radius="lg"
      trapFocus
      aria-labelledby="popup-title"
    >
      {c && (
        <Stack align="center" ta="center" gap="sm" py="xs">
          <ThemeIcon
            size={48}
            radius="xl"
            variant="light"
            color={popup?.kind === 'serverError' ? 'red' : 'orange'}
          >
            {popup?.kind === 'serverError' ? <IconServer size={24} /> : <IconAlert size={24} />}
          </ThemeIcon>
          <Title order={2} fz="lg" id="popup-title">
            {c.title}
          </Title>
          {c.text && <Text c="dimmed">{c.text}</Text>}
          {c.support && <SupportContact />}
          <Group justify="center" mt="sm">
            <Button onClick={confirmPopup} miw={120} data-autofocus>
              {c.button}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
