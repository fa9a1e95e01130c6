import { Box } from '@mantine/core';
import { LIMITS } from '@tlprt/contract';

/**
 * The 12 default profile images of spec §2/§9, drawn inline: index 0 is the placeholder silhouette,
 * 1–11 are illustrated faces. Saved on the user as the index.
 */
interface Look {
  bg: string;
  skin: string;
  hair: string;
  shirt: string;
  style: 'short' | 'long' | 'bun' | 'curly' | 'bald' | 'fringe';
  glasses?: boolean;
  beard?: boolean;
}

const LOOKS: Look[] = [
  { bg: '#dbe4ff', skin: '#f1c27d', hair: '#4a2f1b', shirt: '#4263eb', style: 'short' },
  { bg: '#ffe3e3', skin: '#ffdbac', hair: '#c2410c', shirt: '#e8590c', style: 'long' },
  { bg: '#d3f9d8', skin: '#8d5524', hair: '#1b1b1b', shirt: '#2b8a3e', style: 'curly' },
  { bg: '#fff3bf', skin: '#e0ac69', hair: '#2f2f2f', shirt: '#f08c00', style: 'bun', glasses: true },
  { bg: '#e5dbff', skin: '#ffdbac', hair: '#f5c542', shirt: '#7048e8', style: 'fringe' },
  { bg: '#c5f6fa', skin: '#c68642', hair: '#3b2416', shirt: '#0c8599', style: 'short', beard: true },
  { bg: '#ffdeeb', skin: '#f1c27d', hair: '#8b1e3f', shirt: '#c2255c', style: 'long', glasses: true },
  {
    bg: '#e9ecef',
    skin: '#e0ac69',
    hair: '#6b7280',
    shirt: '#495057',
    style: 'bald',
    glasses: true,
    beard: true,
  },
  { bg: '#d0ebff', skin: '#8d5524', hair: '#111111', shirt: '#1971c2', style: 'bun' },
  { bg: '#ebfbee', skin: '#ffdbac', hair: '#7c4a1e', shirt: '#5c940d', style: 'curly', glasses: true },
  { bg: '#fff4e6', skin: '#c68642', hair: '#1b1b1b', shirt: '#d9480f', style: 'fringe', beard: true },
];

function Hair({ look }: { look: Look }) {
  const c = look.hair;
  switch (look.style) {
    case 'short':
      return <path d="M19 27c0-9 6-14 13-14s13 5 13 14c-3-5-8-7-13-7s-10 2-13 7z" fill={c} />;
    case 'long':
      return <path d="M17 30c0-11 7-17 15-17s15 6 15 17v14h-6V28c-4-3-14-3-18 0v16h-6z" fill={c} />;
    case 'bun':
      return (
        <>
          <circle cx="32" cy="11" r="5" fill={c} />
          <path d="M19 28c0-9 6-14 13-14s13 5 13 14c-4-6-22-6-26 0z" fill={c} />
        </>
      );
    case 'curly':
      return (
        <g fill={c}>
          {[20, 25, 31, 37, 43].map((x, i) => (
            <circle key={x} cx={x} cy={i % 2 ? 15 : 18} r="5.5" />
          ))}
          <circle cx="19" cy="24" r="4" />
          <circle cx="45" cy="24" r="4" />
        </g>
      );
    case 'fringe':
      return <path d="M19 29c0-10 6-16 13-16s13 6 13 16l-4-6-5 3-4-5-5 4-4-3z" fill={c} />;
    case 'bald':
      return (
        <path d="M20 26c1-3 2-4 3-4M44 26c-1-3-2-4-3-4" stroke={c} strokeWidth="3" strokeLinecap="round" />
      );
  }
}

function Face({ look }: { look: Look }) {
  return (
    <>
      <rect width="64" height="64" fill={look.bg} />
      <path d="M10 64c2-12 11-18 22-18s20 6 22 18z" fill={look.shirt} />
      <rect x="28" y="38" width="8" height="9" rx="3" fill={look.skin} />
      <ellipse cx="32" cy="29" rx="12" ry="13" fill={look.skin} />
      {look.beard && <path d="M21 31c1 9 6 12 11 12s10-3 11-12c-3 4-7 5-11 5s-8-1-11-5z" fill={look.hair} />}
      <Hair look={look} />
      <circle cx="27.5" cy="29" r="1.6" fill="#1f2937" />
      <circle cx="36.5" cy="29" r="1.6" fill="#1f2937" />
      <path d="M28.5 35c2 2 5 2 7 0" stroke="#1f2937" strokeWidth="1.6" fill="none" strokeLinecap="round" />
      <circle cx="24.5" cy="33" r="1.8" fill="#ff8787" opacity="0.35" />
      <circle cx="39.5" cy="33" r="1.8" fill="#ff8787" opacity="0.35" />
      {look.glasses && (
        <g stroke="#1f2937" strokeWidth="1.3" fill="none">
          <circle cx="27.5" cy="29" r="3.6" />
          <circle cx="36.5" cy="29" r="3.6" />
          <path d="M31.1 29h1.8" />
        </g>
      )}
    </>
  );
}

function Placeholder() {
  return (
    <>
      <rect width="64" height="64" fill="#e9ecef" />
      <circle cx="32" cy="26" r="11" fill="#adb5bd" />
      <path d="M12 64c2-13 10-20 20-20s18 7 20 20z" fill="#adb5bd" />
    </>
  );
}

export const PROFILE_IMAGE_COUNT = LIMITS.profileImages;

/** Round avatar for an image index (0, null or out of range: the placeholder). */
export function ProfileAvatar({
  image,
  size = 40,
  label,
}: {
  image: number | null | undefined;
  size?: number;
  label?: string;
}) {
  const look = image && image > 0 ? LOOKS[image - 1] : undefined;
  return (
    <Box
      component="svg"
      viewBox="0 0 64 64"
      w={size}
      h={size}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      style={{ borderRadius: '50%', flexShrink: 0, display: 'block' }}
    >
      {look ? <Face look={look} /> : <Placeholder />}
    </Box>
  );
}
