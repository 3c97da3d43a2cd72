/** How addresses are compared and stored: without surrounding spaces, in lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}
