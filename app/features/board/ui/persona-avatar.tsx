/** One of the nine persona avatars (public/avatars/avatar00.svg … avatar08.svg). */
export function PersonaAvatar({ avatar, size = 40 }: { avatar: string; size?: number }) {
  const name = /^avatar0[0-8]$/.test(avatar) ? avatar : 'avatar00'
  return <img src={`/avatars/${name}.svg`} alt="" width={size} height={size} className="persona-avatar" />
}
