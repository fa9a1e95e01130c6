import { Button, Group, Loader, Text } from '@mantine/core';

/** A Verify button and, while the check runs, which host is being checked (domains and Origins). */
export function VerifyButton(props: {
  onClick: () => void;
  verifying: boolean;
  disabled: boolean;
  host: string;
  'aria-label'?: string;
}) {
  return (
    <Group gap="sm">
      <Button
        onClick={props.onClick}
        loading={props.verifying}
        disabled={props.disabled || props.verifying}
        {...(props['aria-label'] ? { 'aria-label': props['aria-label'] } : {})}
      >
        Verify
      </Button>
      {props.verifying && (
        <Group gap={6}>
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            Checking {props.host}…
          </Text>
        </Group>
      )}
    </Group>
  );
}
