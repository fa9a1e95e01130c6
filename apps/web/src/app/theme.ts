import {
  type CSSVariablesResolver,
  createTheme,
  darken,
  defaultVariantColorsResolver,
  type MantineColorsTuple,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';
import { DIMMED_TEXT } from '../platform/ui/colors';

const brand: MantineColorsTuple = [
  '#edf2ff',
  '#dbe4ff',
  '#bac8ff',
  '#91a7ff',
  '#748ffc',
  '#5c7cfa',
  '#4c6ef5',
  '#4263eb',
  '#3b5bdb',
  '#364fc7',
];

/**
 * Filled backgrounds (danger buttons) in darker shades than Mantine's, so white text keeps a 4.5:1
 * contrast (WCAG AA) in both schemes; the brand already does at its primary shades. Light-variant text
 * (badges, light buttons, alerts) is darkened per scheme through CSS variables (cssVariablesResolver).
 * A color given with its shade ("red.9") is taken as chosen.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'filled') return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  const shades = parsed.isThemeColor && parsed.color ? input.theme.colors[parsed.color] : undefined;
  if (!shades || parsed.color === 'brand' || parsed.shade !== undefined) return colors;
  return { ...colors, background: darken(shades[9], 0.1), hover: darken(shades[9], 0.2) };
};

export const theme = createTheme({
  variantColorResolver,
  primaryColor: 'brand',
  // Shade 8: text of the light variant (active nav link, light buttons and badges) and white text on
  // filled buttons keep a 4.5:1 contrast (WCAG AA); shade 7 gave 4.3:1 on the light background. Dark:
  // white on shade 7 is 5:1 (Mantine's shade 5 gives 3.7:1); text there takes the light shades.
  primaryShade: { light: 8, dark: 7 },
  colors: { brand },
  defaultRadius: 'md',
  focusRing: 'auto',
  cursorType: 'pointer',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  components: {
    Button: { defaultProps: { radius: 'md' } },
    TextInput: { defaultProps: { radius: 'md' } },
    PasswordInput: { defaultProps: { radius: 'md' } },
    Card: { defaultProps: { radius: 'lg' } },
    // Mantine's close buttons have no text: name them for screen readers (axe "button-name").
    Modal: { defaultProps: { radius: 'lg', centered: true, closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});

/**
 * Colours that follow the scheme, for what Mantine's own variables do not cover: the page behind the
 * cards (--app-bg), a raised surface (--app-surface: cards drawn by hand, stacked table rows), their
 * border (--app-border), a danger zone's border (--app-danger-border) and a subtle tinted box (--app-subtle). Coloured text (`c="red"`, light badges)
 * takes shade 9 darkened on light backgrounds (4.5:1, WCAG AA) and Mantine's light shades on dark ones.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': DIMMED_TEXT,
    '--app-bg': '#f5f7fb',
    '--app-surface': 'var(--mantine-color-white)',
    '--app-border': 'var(--mantine-color-gray-3)',
    '--app-subtle': 'var(--mantine-color-gray-0)',
    '--app-danger-border': 'var(--mantine-color-red-2)',
  };
  const dark: Record<string, string> = {
    // 5.5:1 on the cards (dark.7) and the page (dark.8); Mantine's dark.2 gives 4:1.
    '--mantine-color-dimmed': '#9a9a9a',
    '--app-bg': 'var(--mantine-color-dark-8)',
    '--app-surface': 'var(--mantine-color-dark-7)',
    '--app-border': 'var(--mantine-color-dark-4)',
    '--app-subtle': 'var(--mantine-color-dark-6)',
    // A pale red glares on dark cards: a deep one marks the danger zone there.
    '--app-danger-border': 'var(--mantine-color-red-9)',
  };
  for (const [name, shades] of Object.entries(t.colors)) {
    if (name === 'brand' || name === 'dark' || name === 'gray') continue;
    const text = darken(shades[9], 0.25);
    light[`--mantine-color-${name}-text`] = text;
    light[`--mantine-color-${name}-light-color`] = text;
    dark[`--mantine-color-${name}-light-color`] = `var(--mantine-color-${name}-3)`;
    dark[`--mantine-color-${name}-text`] = `var(--mantine-color-${name}-4)`;
  }
  return { variables: {}, light, dark };
};
