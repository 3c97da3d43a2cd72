/**
 * What pages say when this server sends no e-mail (SMTP_URL unset, CONTRACT §2: each message
 * only goes to the server log). Honest, and the same for every visitor: a public page never
 * says more than that nothing was sent (issue 43).
 */
export const MAIL_NOT_SET_UP = 'Mail is not set up on this server (SMTP_URL is unset), so no e-mail was sent.'

/** For whoever may read this: who can change it. */
export const ASK_THE_OPERATOR = 'Whoever runs this Storymap can set SMTP_URL.'
