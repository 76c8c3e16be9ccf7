import { Text, Tooltip } from '@mantine/core';

import { COLLECTION_SYMBOL_MAX } from '@/config/constants';
import { truncate } from '@/lib/text';

/** A collection's symbol cut to 6 characters, the whole in a tooltip when cut (spec 001 §9). */
export function CollectionSymbol({ symbol }: { symbol: string }) {
  const shown = truncate(symbol, COLLECTION_SYMBOL_MAX);
  if (shown === symbol) return <Text size="sm">{symbol || '–'}</Text>;
  return (
    <Tooltip label={symbol} withArrow>
      <Text size="sm" tabIndex={0} aria-label={`Symbol ${symbol}`}>
        {shown}
      </Text>
    </Tooltip>
  );
}
