import { useState } from 'react';

import type { InsightView } from '@/lib/api/types';
import { InsightsList } from '@/features/insights/components/insights-list';
import { ShareModal } from '@/features/sharing/components/share-modal';

/** /insights: the list, with the Share dialog of the sharing feature. */
export function InsightsRoute() {
  const [sharing, setSharing] = useState<InsightView | null>(null);
  return (
    <>
      <InsightsList onShare={setSharing} />
      {sharing && (
        <ShareModal
          opened
          entityId={sharing.id}
          entityType="Application"
          entityLabel={sharing.name}
          onClose={() => setSharing(null)}
        />
      )}
    </>
  );
}
