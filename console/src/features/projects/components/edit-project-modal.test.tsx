import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { LEAVE_LABEL, STAY_LABEL, UNSAVED_CHANGES_TITLE } from '@/components/ui/unsaved-changes';
import { EditProjectModal } from '@/features/projects/components/edit-project-modal';
import type { ImageField } from '@/features/projects/components/slots';
import { mockFetch } from '@/testing/fetch-mock';
import { makeProject } from '@/testing/projects';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

/** The card image slot (the insights feature's selector on the real page): one image to pick. */
const imageField: ImageField = ({ onChange }) => (
  <button type="button" onClick={() => onChange('/v1/images/defaults/insight-02.svg')}>
    Pick image 2
  </button>
);

function open(onClose = vi.fn()) {
  signIn();
  mockFetch();
  renderWithProviders(<EditProjectModal project={makeProject({ name: 'forecast', description: 'Weekly', img_path: null })} onClose={onClose} imageField={imageField} />);
  return onClose;
}

describe('edit project modal', () => {
  it.each([
    ['the name', () => user().type(screen.getByRole('textbox', { name: /^Name/ }), '-2')],
    ['the description', () => user().type(screen.getByRole('textbox', { name: 'Description' }), ' runs')],
    ['the image', () => user().click(screen.getByRole('button', { name: 'Pick image 2' }))],
  ])("asks 'You have unsaved changes' on Escape after changing %s, as Cancel does", async (_, change) => {
    const onClose = open();
    await change();
    await user().keyboard('{Escape}');
    const question = await screen.findByRole('dialog', { name: UNSAVED_CHANGES_TITLE });
    expect(onClose).not.toHaveBeenCalled();
    // Escape on the question stays; 'Leave the page' closes without saving.
    await user().keyboard('{Escape}');
    await vi.waitFor(() => expect(question).not.toBeInTheDocument());
    expect(onClose).not.toHaveBeenCalled();
    await user().click(screen.getByRole('button', { name: 'Cancel' }));
    await user().click(within(await screen.findByRole('dialog', { name: UNSAVED_CHANGES_TITLE })).getByRole('button', { name: LEAVE_LABEL }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape at once when nothing changed', async () => {
    const onClose = open();
    await screen.findByRole('textbox', { name: /^Name/ });
    await user().keyboard('{Escape}');
    await vi.waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('dialog', { name: UNSAVED_CHANGES_TITLE })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: STAY_LABEL })).not.toBeInTheDocument();
  });
});
