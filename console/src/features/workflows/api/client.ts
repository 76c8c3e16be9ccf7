import type { WorkflowPaths } from '@/features/workflows/api/types';
import { createApiClient } from '@/lib/api-client';

/**
 * The workflow calls' client: the console's transport and error handling, typed by the contract's
 * paths (api/types.ts) until the generated schema has them; then these calls use `api`.
 */
export const workflowsApi = createApiClient<WorkflowPaths>();
