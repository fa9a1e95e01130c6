import { Box, Button } from '@mantine/core';
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { IconLock } from '../../platform/ui/icons';

/** The id of list `i`'s tab in a tab bar (the header's and the page's are never shown together, but
 *  both may be mounted, so each bar has its own ids). */
export const listTabId = (variant: string, i: number) => `stats-list-tab-${variant}-${i}`;

/** Width of the fade that says more tabs are hidden past an edge. */
const FADE_PX = 28;

/**
 * The saved lists as a tablist (WAI-ARIA tabs): the selected one is announced (aria-selected), one tab
 * stop for the bar (roving tabindex), arrows, Home and End move and select. Each tab shows its whole name
 * on one line (names are at most 30 characters), never cut mid-word; when the bar is wider than its
 * room it scrolls sideways and the hidden side fades out, so a phone shows there is more.
 */
export function ListTabButtons({
  names,
  index,
  onSelect,
  variant,
}: {
  names: readonly string[];
  index: number;
  onSelect: (i: number) => void;
  variant: 'header' | 'page';
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ before: false, after: false });

  const measure = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const before = el.scrollLeft > 1;
    const after = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setMore((m) => (m.before === before && m.after === after ? m : { before, after }));
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the names change the bar's width
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [measure, names.length]);

  // The selected tab is brought into view (a list chosen elsewhere, or the last one on a phone).
  useEffect(() => {
    const tab = document.getElementById(listTabId(variant, index));
    tab?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [index, variant]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const last = names.length - 1;
    const next =
      e.key === 'ArrowRight'
        ? index >= last
          ? 0
          : index + 1
        : e.key === 'ArrowLeft'
          ? index <= 0
            ? last
            : index - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (next === null) return;
    e.preventDefault();
    onSelect(next);
    document.getElementById(listTabId(variant, next))?.focus();
  };

  const mask = `linear-gradient(to right, ${more.before ? 'transparent' : '#000'}, #000 ${FADE_PX}px, #000 calc(100% - ${FADE_PX}px), ${more.after ? 'transparent' : '#000'})`;
  return (
    <Box
      ref={scroller}
      onScroll={measure}
      role="tablist"
      aria-label="Statistics lists"
      aria-orientation="horizontal"
      onKeyDown={onKeyDown}
      data-more-before={more.before || undefined}
      data-more-after={more.after || undefined}
      py={variant === 'page' ? 4 : 0}
      style={{
        display: 'flex',
        gap: 4,
        minWidth: 0,
        overflowX: 'auto',
        overflowY: 'hidden',
        scrollbarWidth: 'none',
        maskImage: more.before || more.after ? mask : undefined,
        WebkitMaskImage: more.before || more.after ? mask : undefined,
      }}
    >
      {names.map((name, i) => {
        const selected = index === i;
        return (
          <Button
            // biome-ignore lint/suspicious/noArrayIndexKey: lists have no id; the index is their identity
            key={i}
            id={listTabId(variant, i)}
            role="tab"
            aria-selected={selected}
            tabIndex={selected ? 0 : -1}
            size="compact-sm"
            h={32}
            px="sm"
            radius="md"
            variant={selected ? 'light' : 'subtle'}
            color={selected ? 'brand' : 'gray'}
            onClick={() => onSelect(i)}
            leftSection={i === 0 ? <IconLock size={13} /> : undefined}
            fw={selected ? 600 : 500}
            style={{ flexShrink: 0 }}
            styles={{ label: { whiteSpace: 'nowrap', overflow: 'visible' } }}
          >
            {name}
          </Button>
        );
      })}
    </Box>
  );
}
