import {
  type CSSVariablesResolver,
  createTheme,
  darken,
  defaultVariantColorsResolver,
  type MantineColorsTuple,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';

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
 * Light-variant text (badges, light buttons, alerts) and filled backgrounds in darker shades than
 * Mantine's, so text keeps a 4.5:1 contrast (WCAG AA); the brand already does at shade 8. A color given
 * with its shade ("red.9") is taken as chosen.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'light' && input.variant !== 'filled') return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  const shades = parsed.isThemeColor && parsed.color ? input.theme.colors[parsed.color] : undefined;
  if (!shades || parsed.color === 'brand' || parsed.shade !== undefined) return colors;
  if (input.variant === 'light') return { ...colors, color: darken(shades[9], 0.25) };
  // Filled (danger buttons): white text needs a darker background than Mantine's shade 6.
  return { ...colors, background: darken(shades[9], 0.1), hover: darken(shades[9], 0.2) };
};

export const theme = createTheme({
  variantColorResolver,
  primaryColor: 'brand',
  // Shade 8: text of the light variant (active nav link, light buttons and badges) and white text on
  // filled buttons keep a 4.5:1 contrast (WCAG AA); shade 7 gave 4.3:1 on the light background.
  primaryShade: { light: 8, dark: 5 },
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

/** Dimmed text (hints, captions, labels of figures) at 5:1 on white instead of Mantine's 3.3:1. */
export const DIMMED_TEXT = '#697077';

/** Orange for warning text on white (orange.9 darkened: 5:1; Mantine's orange.7 is 3:1). */
export const WARNING_TEXT = '#b83d0c';

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': DIMMED_TEXT },
  dark: {},
});
