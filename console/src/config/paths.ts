/** Every route of the console: its path pattern and an href builder. */
export const paths = {
  home: { path: '/', getHref: () => '/' },
} as const;
