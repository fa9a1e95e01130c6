/** Units of spec §9: bandwidth in bits (K, M, G, T, P, base 1024), viewer counts (K, M, B, T). */
const BIT_UNITS = ['', 'K', 'M', 'G', 'T', 'P'] as const;

function trim(n: number): string {
  const fixed = n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** 1536 → "1.5 K"; base 1024 up to P. */
export function scale1024(value: number): { value: string; unit: string } {
  if (!Number.isFinite(value) || value <= 0) return { value: '0', unit: '' };
  let v = value;
  let i = 0;
  while (v >= 1024 && i < BIT_UNITS.length - 1) {
    v /= 1024;
    i += 1;
  }
  return { value: trim(v), unit: BIT_UNITS[i] ?? '' };
}

/** Bits per second: 1536 → "1.5 Kbps". */
export function formatBits(bitsPerSecond: number): string {
  const s = scale1024(bitsPerSecond);
  return `${s.value} ${s.unit}bps`;
}

/** A volume in bytes: 1536 → "1.5 KB". */
export function formatBytes(bytes: number): string {
  const s = scale1024(bytes);
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
  for (const [size, unit] of COUNT_UNITS) if (count >= size) return `${trim(count / size)}${unit}`;
  return String(Math.round(count));
}

/** A share in 0..1 → "42.3%" (one decimal; "0%" / "100%" exact). */
export function formatPercent(share: number): string {
  if (!Number.isFinite(share) || share <= 0) return '0%';
  if (share >= 1) return '100%';
  return `${(share * 100).toFixed(1)}%`;
}

/** The team's offset as the axis shows it: 2 → "UTC+2", -7 → "UTC-7", 5.5 → "UTC+5:30". */
export function utcLabel(offsetHours: number): string {
  const sign = offsetHours < 0 ? '-' : '+';
  const abs = Math.abs(offsetHours);
  const h = Math.floor(abs);
  const m = Math.round((abs - h) * 60);
  return `UTC${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}
