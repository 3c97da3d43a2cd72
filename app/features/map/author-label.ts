/**
 * The activity line's author: `Ana`, or `Ana via CI sync` for a change made with a token
 * (CONTRACT §10). Apart from api-tokens.ts so the board does not load the validation library.
 */
export const authorLabel = (by: { name: string; via?: string | null }) =>
  by.via ? `${by.name} via ${by.via}` : by.name
