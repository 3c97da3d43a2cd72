/** A count with its noun, singular for exactly one: `1 project`, `0 projects`, `3 features`. */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/**
 * Part of a whole, the noun agreeing with the whole: `2 of 5 features`, `1 of 1 feature`; the
 * whole alone (`5 features`) when nothing is left out (`part` null).
 */
export function partOf(part: number | null, whole: number, one: string, many = `${one}s`): string {
  return part === null ? countOf(whole, one, many) : `${part} of ${countOf(whole, one, many)}`
}
