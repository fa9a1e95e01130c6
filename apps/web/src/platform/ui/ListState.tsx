import { type MantineRadius, type MantineSpacing, Skeleton, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { LoadFailedAlert } from './Page';

/** The read of a list: still loading, failed (no items), or its items (maybe none). */
export interface ListQuery<T> {
  isPending: boolean;
  /** The items; undefined once the read failed. */
  data: readonly T[] | undefined;
}

/**
 * A list read from the server in its four states: two skeleton rows while it loads (busy, named by
 * `loading.label`), the failure (the common alert unless `failed` is given), `empty` when it has no
 * item, else the list as `children` renders it.
 */
export function ListState<T>({
  query,
  loading,
  failed,
  empty,
  children,
}: {
  query: ListQuery<T>;
  /** The skeleton: its accessible name, and the height, radius and gap of its rows. */
  loading: { label: string; height: number; radius?: MantineRadius; gap?: MantineSpacing };
  failed?: ReactNode;
  empty: ReactNode;
  children: (items: readonly T[]) => ReactNode;
}) {
  if (query.isPending)
    return (
      <Stack gap={loading.gap} aria-busy="true" aria-label={loading.label}>
        <Skeleton h={loading.height} radius={loading.radius} />
        <Skeleton h={loading.height} radius={loading.radius} />
      </Stack>
    );
  if (!query.data) return failed ?? <LoadFailedAlert />;
  if (query.data.length === 0) return empty;
  return children(query.data);
}
