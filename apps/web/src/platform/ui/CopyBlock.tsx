import { ActionIcon, Box, Code, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from './icons';

/** A copy-to-clipboard button with a "Copied" tooltip. */
export function CopyIcon({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
          <ActionIcon
            variant="subtle"
            color={copied ? 'teal' : 'gray'}
            onClick={copy}
            aria-label={label}
            size="md"
          >
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/** A labelled, copyable block of text (verification instructions, player snippets). */
export function CopyBlock({
  label,
  value,
  multiline,
}: {
  label: string;
  value: string;
  multiline?: boolean;
}) {
  return (
    <Box>
      <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
        <Text size="xs" fw={600} c="dimmed" tt="uppercase" style={{ letterSpacing: '0.04em' }}>
          {label}
        </Text>
        <CopyIcon value={value} label={`Copy ${label}`} />
      </Group>
      <Code
        block={multiline}
        className="code-block"
        style={{ display: 'block', padding: multiline ? 12 : 8 }}
      >
        {value}
      </Code>
    </Box>
  );
}
