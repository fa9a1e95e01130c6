import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@tlprt/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render';
import { startApi } from '../../test/session';
import { DashboardLayout, MAIN_ID, SKIP_LINK_TEXT } from './DashboardLayout';

let api: Awaited<ReturnType<typeof startApi>> | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

describe('the skip link', () => {
  it('is the first tab stop, shown on focus, and moves focus to the main element', async () => {
    api = await startApi();
    localStorage.setItem(STORAGE_KEYS.token, 'tok');
    renderScreen(<DashboardLayout />, '/settings');
    await waitFor(() => expect(screen.getByRole('banner')).toBeInTheDocument());
    const user = userEvent.setup();
    await user.tab();
    const link = screen.getByRole('link', { name: SKIP_LINK_TEXT });
    expect(link).toHaveFocus();
    expect(link).toHaveStyle({ position: 'fixed' });
    await user.keyboard('{Enter}');
    const main = screen.getByRole('main');
    expect(main).toHaveAttribute('id', MAIN_ID);
    expect(main).toHaveFocus();
    // Focus moved without putting a fragment into the address.
    expect(window.location.hash).toBe('');
  });
});
