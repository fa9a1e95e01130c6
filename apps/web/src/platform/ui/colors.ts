/**
 * Dimmed text (hints, captions, labels of figures) at 5:1 on white instead of Mantine's 3.3:1. Here and
 * not in the theme because the chart draws on a canvas, which reads no CSS variable.
 */
export const DIMMED_TEXT = '#697077';
