import { Alert } from '@mantine/core';
import { IconAlert } from './icons';

/** The form-level error line (e.g. "All fields are required", the server's message). */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlert />} role="alert" py="xs">
      {message}
    </Alert>
  );
}
