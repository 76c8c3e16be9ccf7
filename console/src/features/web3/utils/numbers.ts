/** An overlap as the web3 page shows it: '23.08 %' (the API rounds to two decimals). */
export function percent(value: number): string {
  return `${Number(value.toFixed(2))} %`;
}
