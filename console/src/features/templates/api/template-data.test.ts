import { describe, expect, it } from 'vitest';

import { retryWhenBusy } from '@/features/templates/api/template-data';
import { ApiError } from '@/lib/api-client';

describe('template computations', () => {
  it('are asked again once only when every worker stayed busy', () => {
    const busy = new ApiError('Every template worker is busy', 503, 'template_busy');
    expect(retryWhenBusy(0, busy)).toBe(true);
    expect(retryWhenBusy(1, busy)).toBe(false);
    for (const other of [
      new ApiError('took longer than 20 s', 503, 'template_timeout'),
      new ApiError('has more than 200,000 rows', 422, 'too_many_rows'),
      new Error('network'),
    ]) {
      expect(retryWhenBusy(0, other)).toBe(false);
    }
  });
});
