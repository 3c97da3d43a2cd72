/** Storymap's release, as in package.json (a unit test holds them equal). */
export const APP_VERSION = '1.1.0'
