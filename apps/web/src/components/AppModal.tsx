import { Modal, type ModalProps } from '@mantine/core';
import { useCloseOnSignal } from './modalBus';

/** Every modal of the app: closes itself when a server event arrives or access is forbidden. */
export function AppModal(props: ModalProps) {
  useCloseOnSignal(props.opened, props.onClose);
  return <Modal {...props} />;
}
