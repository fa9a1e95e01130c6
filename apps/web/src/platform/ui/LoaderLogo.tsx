import { Center, Stack, Text, VisuallyHidden } from '@mantine/core';
import { TIMINGS } from '@tlprt/contract';
import { useEffect, useState } from 'react';
import { LogoMark } from './Logo';

const FULL = 100;

/**
 * The loader logo of spec §2: the counter counts down by 10 every 30 ms (and starts over), drawing the
 * ring around the mark. Shown while the session and teams load, and as the whole of /team and /billing.
 */
export function LoaderLogo({
  fullHeight = true,
  label = 'Loading',
}: {
  fullHeight?: boolean;
  label?: string;
}) {
  const [counter, setCounter] = useState(FULL);
  useEffect(() => {
    const id = setInterval(
      () => setCounter((c) => (c - TIMINGS.loaderStep < 0 ? FULL : c - TIMINGS.loaderStep)),
      TIMINGS.loaderStepMs,
    );
    return () => clearInterval(id);
  }, []);
  const r = 26;
  const circumference = 2 * Math.PI * r;
  return (
    <Center mih={fullHeight ? 'calc(100dvh - 140px)' : 200} role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <svg width={72} height={72} viewBox="0 0 64 64" aria-hidden="true" data-counter={counter}>
          <circle cx="32" cy="32" r={r} stroke="var(--app-border)" strokeWidth="4" fill="none" />
          <circle
            className="loader-ring"
            cx="32"
            cy="32"
            r={r}
            stroke="var(--mantine-color-brand-6)"
            strokeWidth="4"
            strokeLinecap="round"
            fill="none"
            strokeDasharray={circumference}
            strokeDashoffset={(circumference * counter) / FULL}
            transform="rotate(-90 32 32)"
          />
          <g transform="translate(18 18) scale(0.875)">
            <LogoMark size={32} />
          </g>
        </svg>
        <Text size="sm" c="dimmed" aria-hidden="true">
          {label}…
        </Text>
        <VisuallyHidden>{label}</VisuallyHidden>
      </Stack>
    </Center>
  );
}
