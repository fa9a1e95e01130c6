/**
 * Units: decimal steps of 1000, as network rates and CDN bills quote them: bytes in B, kB, MB, GB, TB, PB
 * and bit rates in bps, kbps, Mbps, Gbps, Tbps, Pbps. Viewer counts: K, M, B, T.
 */
const PREFIXES = ['', 'k', 'M', 'G', 'T', 'P'] as const;

/** A number with at most 3 significant digits and no trailing zeros: 40 → "40", 12.345 → "12.3". */
export function shortNumber(n: number): string {
  const fixed = n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** 1500 → { value: "1.5", unit: "k" }; steps of 1000 up to P. */
function scale1000(value: number): { value: string; unit: string } {
  if (!Number.isFinite(value) || value <= 0) return { value: '0', unit: '' };
  let v = value;
  let i = 0;
  while (v >= 1000 && i < PREFIXES.length - 1) {
    v /= 1000;
    i += 1;
  }
  // 999.96 k rounds to "1000": shown as 1 M instead.
  if (shortNumber(v) === '1000' && i < PREFIXES.length - 1) {
    v /= 1000;
    i += 1;
  }
  return { value: shortNumber(v), unit: PREFIXES[i] ?? '' };
}

/** Bits per second: 1500 → "1.5 kbps". */
export function formatBits(bitsPerSecond: number): string {
  const s = scale1000(bitsPerSecond);
  return `${s.value} ${s.unit}bps`;
}

/** A volume in bytes: 1500 → "1.5 kB". */
export function formatBytes(bytes: number): string {
  const s = scale1000(bytes);
  return `${s.value} ${s.unit}B`;
}

const COUNT_UNITS: ReadonlyArray<[number, string]> = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/** Viewer counts: 999 → "999", 12_500 → "12.5K", 3e9 → "3B". */
export function formatCount(count: number): string {
  if (!Number.isFinite(count) || count <= 0) return '0';
  for (const [size, unit] of COUNT_UNITS) if (count >= size) return `${shortNumber(count / size)}${unit}`;
  return String(Math.round(count));
}

/** A share in 0..1 → "42.3%" (one decimal; "0%" / "100%" exact). */
export function formatPercent(share: number): string {
  if (!Number.isFinite(share) || share <= 0) return '0%';
  if (share >= 1) return '100%';
  return `${(share * 100).toFixed(1)}%`;
}

/** A share that may fall below 0 (a saving that cost more than it saved) → "42.3%", "−4.1%"; at most
 *  "100%". */
export function formatSignedPercent(share: number): string {
  if (!Number.isFinite(share)) return '0%';
  if (share >= 0) return formatPercent(share);
  const shown = (-share * 100).toFixed(1);
  return shown === '0.0' ? '0%' : `−${shown}%`;
}
