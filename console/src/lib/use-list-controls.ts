import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { SEARCH_DEBOUNCE_MS } from '@/config/constants';

/**
 * The controls of a listing page (spec 001 §2 "Listing pages"): the filter kept in the address
 * (`?filter=shared`, the default left out), a search applied after a 500 ms pause, and the page,
 * which belongs to one filter and search (another filter or search starts on page 1).
 */
export function useListControls<F extends string>(filters: readonly { value: F }[], defaultFilter: F) {
  const [params, setParams] = useSearchParams();
  const raw = params.get('filter');
  const isFilter = (v: string | null): v is F => filters.some((f) => f.value === v);
  const filter: F = isFilter(raw) ? raw : defaultFilter;
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const pageKey = `${filter}|${debounced}`;
  const [pageState, setPageState] = useState({ key: pageKey, page: 1 });
  const page = pageState.key === pageKey ? pageState.page : 1;

  function chooseFilter(v: string | null) {
    if (!isFilter(v)) return;
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (v === defaultFilter) next.delete('filter');
        else next.set('filter', v);
        return next;
      },
      { replace: true },
    );
  }

  return {
    filter,
    chooseFilter,
    search,
    setSearch,
    /** The search as sent: trimmed, after the pause. */
    debounced,
    page,
    setPage: (n: number) => setPageState({ key: pageKey, page: n }),
  };
}
