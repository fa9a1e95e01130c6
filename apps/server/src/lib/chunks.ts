/** `xs` in slices of at most `n`: statements stay under the databases' limits on bound parameters. */
export function chunks<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}
