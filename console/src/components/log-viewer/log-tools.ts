import { createContext, type ReactNode, use } from 'react';

/** Tools over a log's lines (the assistant's log summary), for the item `id` the log is of. */
export type LogTools = (context: { id: string; lines: string[] }) => ReactNode;

/**
 * Log tools for log views deep inside a feature (a workflow task's log): the app layer provides
 * them, the view renders them over its lines. None: no tools.
 */
export const LogToolsContext = createContext<LogTools | null>(null);

export function useLogTools(): LogTools | null {
  return use(LogToolsContext);
}
