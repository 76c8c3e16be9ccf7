import { describe, expect, it } from 'vitest';

import { pickCollection } from '@/features/web3/utils/pick';
import { makeCollection } from '@/testing/web3';

const running = makeCollection({ gcp_slug: 'harbour', status: 'running' });
const failed = makeCollection({ gcp_slug: 'broken', status: 'failed' });
const indexed = makeCollection({ gcp_slug: 'Lighthouses', status: 'success' });

describe("the web3 page's collection", () => {
  it('is the newest indexed one by default, else the newest, else none', () => {
    expect(pickCollection([running, failed, indexed], null)).toEqual({ slug: 'Lighthouses', collection: indexed });
    expect(pickCollection([running, failed], null)).toEqual({ slug: 'harbour', collection: running });
    expect(pickCollection([], null)).toEqual({ slug: null, collection: null });
  });

  it("is the one ?slug= names, whatever its case, even when the list does not hold it", () => {
    expect(pickCollection([running, indexed], 'lighthouses')).toEqual({ slug: 'Lighthouses', collection: indexed });
    expect(pickCollection([running], 'older')).toEqual({ slug: 'older', collection: null });
  });
});
