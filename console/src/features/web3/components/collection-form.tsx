import { Alert, Paper, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { ModalActions } from '@/components/ui/modal-actions';
import { CHAINS } from '@/config/constants';
import { paths } from '@/config/paths';
import { useAddCollection } from '@/features/web3/api/add-collection';
import type { Chain } from '@/features/web3/api/types';
import { useValidateContract } from '@/features/web3/api/validate-contract';
import { type CollectionErrors, collectionErrors, hasErrors, isChain } from '@/features/web3/utils/collection-rules';
import { WEB3_MESSAGES } from '@/features/web3/utils/messages';
import { messageOf, notify } from '@/lib/notify';

const NO_ERRORS: CollectionErrors = { contractAddress: null, slug: null, chain: null };

/**
 * /collections/new (spec 001 §2, §5): contract address, slug name and chain. The contract is
 * validated on its chain first; only a valid one is added ('Collection created successfully!',
 * back to the list). A contract that is not a collection is logged, as the spec says, and its
 * reason shown under the form; a refusal of the server (409, 422, 503…) too.
 */
export function CollectionForm() {
  const navigate = useNavigate();
  const [contractAddress, setContractAddress] = useState('');
  const [slug, setSlug] = useState('');
  const [chain, setChain] = useState<string | null>(null);
  const [errors, setErrors] = useState<CollectionErrors>(NO_ERRORS);
  const [notAdded, setNotAdded] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // From the validation's start to the addition's end: one submit at a time.
  const [busy, setBusy] = useState(false);
  const validate = useValidateContract();
  const add = useAddCollection();

  async function send(input: { contractAddress: string; slug: string; chain: Chain }) {
    setNotAdded(null);
    setFailure(null);
    setBusy(true);
    try {
      const check = await validate.mutateAsync(input);
      if (!check.valid) {
        console.warn(`Collection not added: ${check.message}`);
        setNotAdded(check.message);
        return;
      }
      await add.mutateAsync(input);
      notify.success(WEB3_MESSAGES.collectionCreated);
      navigate(paths.collections.getHref());
    } catch (e) {
      setFailure(messageOf(e));
    } finally {
      setBusy(false);
    }
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const found = collectionErrors({ contractAddress, slug, chain });
    setErrors(found);
    if (busy || hasErrors(found) || !isChain(chain)) return;
    void send({ contractAddress: contractAddress.trim(), slug: slug.trim(), chain });
  }

  /** A field's change clears its message and the last answer's. */
  function edited(field: keyof CollectionErrors) {
    setErrors((x) => ({ ...x, [field]: null }));
    setNotAdded(null);
    setFailure(null);
  }

  return (
    <Paper withBorder p="lg" radius="md" maw={720}>
      <form noValidate onSubmit={submit} aria-label="Add collection">
        <Stack>
          <TextInput
            label="Contract address"
            description="0x and the 40 hex digits of an ERC-721 or ERC-1155 contract."
            required
            data-autofocus
            value={contractAddress}
            error={errors.contractAddress}
            onChange={(e) => {
              setContractAddress(e.currentTarget.value);
              edited('contractAddress');
            }}
          />
          <TextInput
            label="Slug name"
            description="Letters and digits: how the web3 page names the collection."
            required
            value={slug}
            error={errors.slug}
            onChange={(e) => {
              setSlug(e.currentTarget.value);
              edited('slug');
            }}
          />
          <Select
            label="Chain"
            required
            placeholder="Choose a chain"
            data={[...CHAINS]}
            value={chain}
            error={errors.chain}
            onChange={(v) => {
              setChain(v);
              edited('chain');
            }}
          />
          {notAdded && (
            <Alert color="orange" variant="light" role="alert" title={WEB3_MESSAGES.notAddedTitle}>
              {notAdded}
            </Alert>
          )}
          <ModalActions
            error={failure}
            submitLabel="Add Collection"
            loading={busy}
            onCancel={() => navigate(paths.collections.getHref())}
          />
        </Stack>
      </form>
    </Paper>
  );
}
