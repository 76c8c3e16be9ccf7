/** The template apps' constants (spec 001 §9). */

export type TemplateKind = 'cluster' | 'slice-and-dice' | 'campaign';

export const TEMPLATES: { value: TemplateKind; title: string; description: string }[] = [
  { value: 'cluster', title: 'Cluster', description: 'Group the rows by k-means over two numeric columns and see the clusters.' },
  { value: 'slice-and-dice', title: 'Summary (slice and dice)', description: 'Aggregate a column by another as a line, bar, stacked bar or radar chart, beside the data.' },
  { value: 'campaign', title: 'Optimization (campaign)', description: 'Forecast a column over time with fitted values and a moving average, beside a segmentation.' },
];

export const CLUSTERS_DEFAULT = 4;
export const CLUSTERS_RANGE = { min: 1, max: 9 } as const;
/** The optimization sidebar's range, and the count it calls optimal. */
export const SIDEBAR_CLUSTERS_RANGE = { min: 2, max: 8 } as const;
export const OPTIMAL_CLUSTERS = 4;
/** Nine cluster colours, one a cluster. */
export const CLUSTER_COLORS = ['blue.6', 'red.6', 'teal.6', 'orange.6', 'grape.6', 'lime.7', 'cyan.6', 'pink.6', 'yellow.7'] as const;

export const NO_AGGREGATION = 'No aggregation';
export const AGGREGATIONS = [NO_AGGREGATION, 'sum', 'mean', 'median', 'variance', 'count'] as const;
export const GRAPH_TYPES = [
  { value: 'line', label: 'Line' },
  { value: 'bar', label: 'Bar' },
  { value: 'stacked', label: 'Stacked bar' },
  { value: 'radar', label: 'Radar' },
] as const;
export type GraphType = (typeof GRAPH_TYPES)[number]['value'];

export const FORECAST_LINES = ['ALL', 'Fitted Values', 'Moving Average', 'Forecast'] as const;
export type ForecastLine = (typeof FORECAST_LINES)[number];

/** The data table: 10 rows from row 0. */
export const TABLE_ROWS = 10;

export const WIZARD_MESSAGES = {
  name: 'Empty App name not allowed',
  dataset: 'Dataset must be selected!',
  template: 'Template App Type must be selected!',
} as const;
