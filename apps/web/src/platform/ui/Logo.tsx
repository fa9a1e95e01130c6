import { Group, Text } from '@mantine/core';
import { PRODUCT_NAME } from '../config';

/** The product mark: three peers linked (a P2P mesh). */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
      style={{ flexShrink: 0, display: 'block' }}
    >
      <rect width="32" height="32" rx="8" fill="var(--mantine-color-brand-7)" />
      <path d="M10 16 22 9.5M10 16l12 6.5M22 9.5v13" stroke="#fff" strokeWidth="1.6" fill="none" />
      <circle cx="10" cy="16" r="3.2" fill="#fff" />
      <circle cx="22" cy="9.5" r="3.2" fill="#fff" />
      <circle cx="22" cy="22.5" r="3.2" fill="#fff" />
    </svg>
  );
}

export function Logo({ size = 32 }: { size?: number }) {
  return (
    <Group gap={10} wrap="nowrap">
      <LogoMark size={size} />
      <Text fw={700} size="lg" c="bright" style={{ letterSpacing: '-0.01em', whiteSpace: 'nowrap' }}>
        {PRODUCT_NAME}
      </Text>
    </Group>
  );
}
