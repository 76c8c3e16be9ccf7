import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { IdleNote, clockTime } from '@/components/ui/idle-note';
import { renderWithProviders } from '@/testing/render';

describe('idle note', () => {
  it('says when a preview stops and an app sleeps, at the local time', () => {
    const stopsAt = Date.UTC(2026, 10, 29, 15, 42) / 1000;
    const at = clockTime(stopsAt);
    expect(at).toMatch(/\d{1,2}:42/);
    renderWithProviders(
      <>
        <IdleNote kind="preview" idle={{ idle_minutes: 60, stops_at: stopsAt }} />
        <IdleNote kind="app" idle={{ idle_minutes: 30, stops_at: stopsAt }} />
      </>,
    );
    expect(screen.getByText(`Stops at ${at} if unused`)).toBeInTheDocument();
    expect(screen.getByText(`Sleeps at ${at} if unused`)).toBeInTheDocument();
  });

  it('says nothing without an idle time', () => {
    const { container } = renderWithProviders(<IdleNote kind="preview" idle={null} />);
    expect(container).not.toHaveTextContent(/if unused/);
  });
});
