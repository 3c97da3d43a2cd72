import type { Color } from './vocabulary'

/** Display colours of the eleven card colours (SPEC §4); '' is none. */
export const COLOR_SWATCHES: Record<Exclude<Color, ''>, { fill: string; label: string }> = {
  WHITE: { fill: '#ffffff', label: 'White' },
  GREY: { fill: '#adb5bd', label: 'Grey' },
  RED: { fill: '#fa5252', label: 'Red' },
  ORANGE: { fill: '#fd7e14', label: 'Orange' },
  YELLOW: { fill: '#fcc419', label: 'Yellow' },
  GREEN: { fill: '#40c057', label: 'Green' },
  TEAL: { fill: '#20c997', label: 'Teal' },
  BLUE: { fill: '#339af0', label: 'Blue' },
  INDIGO: { fill: '#5c7cfa', label: 'Indigo' },
  PURPLE: { fill: '#9775fa', label: 'Purple' },
  PINK: { fill: '#f06595', label: 'Pink' },
}

export function colorFill(color: string): string | undefined {
  return color ? COLOR_SWATCHES[color as keyof typeof COLOR_SWATCHES]?.fill : undefined
}
