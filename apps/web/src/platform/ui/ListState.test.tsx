import { screen } from '@testing-library/react';
import { MSG } from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render';
import { type ListQuery, ListState } from './ListState';

const show = (query: ListQuery<string>, failed?: string) =>
  renderScreen(
    <ListState
      query={query}
      loading={{ label: 'Loading things', height: 40, gap: 'sm' }}
      failed={failed}
      empty={<p>Nothing yet</p>}
    >
      {(items) => (
        <ul aria-label="Things">
          {items.map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
      )}
    </ListState>,
  );

describe('ListState', () => {
  it('shows the skeleton while loading, busy and named', () => {
    show({ isPending: true, data: undefined });
    expect(screen.getByLabelText('Loading things')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText('Nothing yet')).not.toBeInTheDocument();
  });
  it('shows the common failure, or the one given', () => {
    show({ isPending: false, data: undefined });
    expect(screen.getByText(MSG.serverErrorTitle)).toBeInTheDocument();
    show({ isPending: false, data: undefined }, 'Could not read the things');
    expect(screen.getByText('Could not read the things')).toBeInTheDocument();
    expect(screen.queryByText(MSG.serverErrorTitle)).not.toBeInTheDocument();
  });
  it('shows the empty state without items, else the list', () => {
    show({ isPending: false, data: [] });
    expect(screen.getByText('Nothing yet')).toBeInTheDocument();
    show({ isPending: false, data: ['a', 'b'] });
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['a', 'b']);
    expect(screen.queryByText('Nothing yet')).not.toBeInTheDocument();
  });
});
