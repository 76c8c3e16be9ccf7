import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { NewTemplateApp, TemplateForecastRequest, TemplateGraphRequest as GraphRequest } from '@/lib/api/types';

const keys = {
  all: (id: string) => ['templates', id] as const,
  columns: (id: string) => ['templates', id, 'columns'] as const,
  page: (id: string, start: number, count: number) => ['templates', id, 'page', start, count] as const,
  graph: (id: string, req: GraphRequest) => ['templates', id, 'graph', req] as const,
  forecast: (id: string, req: TemplateForecastRequest) => ['templates', id, 'forecast', req] as const,
};

/** GET /v1/templates/col.names/{id}: the data file's columns. */
export function useTemplateColumns(id: string) {
  return useQuery({
    queryKey: keys.columns(id),
    queryFn: () => unwrap(api.GET('/v1/templates/col.names/{id}', { params: { path: { id } } })),
    staleTime: Infinity,
  });
}

/** POST /v1/templates/data.paginate/{id}: rows from `start`, and the file's row count. */
export function useTemplatePage(id: string, start: number, count: number) {
  return useQuery({
    queryKey: keys.page(id, start, count),
    queryFn: () => unwrap(api.POST('/v1/templates/data.paginate/{id}', { params: { path: { id } }, body: { start, count } })),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

/** POST /v1/templates/graph.data/{id}: k-means clusters or a series; asked once the request is complete. */
export function useTemplateGraph(id: string, req: GraphRequest | null) {
  return useQuery({
    queryKey: keys.graph(id, req ?? { kind: 'series', x: '', y: '' }),
    queryFn: () => unwrap(api.POST('/v1/templates/graph.data/{id}', { params: { path: { id } }, body: req! })),
    enabled: req !== null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

/** One series a `y` column by `x` (graph.data, kind series), asked together. */
export function useTemplateSeries(id: string, x: string | null, ys: string[], aggregation: string) {
  return useQueries({
    queries: ys.map((y) => {
      const req: GraphRequest = { kind: 'series', x: x ?? '', y, aggregation };
      return {
        queryKey: keys.graph(id, req),
        queryFn: () => unwrap(api.POST('/v1/templates/graph.data/{id}', { params: { path: { id } }, body: req })),
        enabled: x !== null,
        staleTime: Infinity,
      };
    }),
  });
}

/** POST /v1/templates/forecast/{id}: fitted values, moving average and forecast of `y` over `x`. */
export function useTemplateForecast(id: string, req: TemplateForecastRequest | null) {
  return useQuery({
    queryKey: keys.forecast(id, req ?? { x: '', y: '' }),
    queryFn: () => unwrap(api.POST('/v1/templates/forecast/{id}', { params: { path: { id } }, body: req! })),
    enabled: req !== null,
    staleTime: Infinity,
  });
}

/** POST /v2/applications/create: the wizard's template app. */
export function useCreateTemplateApp(options: { onSuccess?: (id: string) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (application: NewTemplateApp) => unwrap(api.POST('/v2/applications/create', { body: { application } })),
    meta: { silent: true },
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: ['applications'] });
      options.onSuccess?.(r.application.id);
    },
  });
}
