import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/** Password input with a keyboard-reachable show/hide toggle (spec §2 "eye toggles"). */
export function PasswordField(props: PasswordInputProps) {
  return (
    <PasswordInput
      size="md"
      visibilityToggleButtonProps={{ 'aria-label': 'Toggle visibility', tabIndex: 0 }}
      {...props}
    />
  );
}
