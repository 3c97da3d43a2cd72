import { useState } from 'react'

/**
 * Copies `text` to the clipboard; says 'Copied' for a moment. Shows `children` (default `Copy`);
 * `label`, its accessible name, starts with what it shows.
 */
export function CopyButton({
  text,
  label,
  children = 'Copy',
}: {
  text: string
  label: string
  children?: string
}) {
  const [copied, setCopied] = useState(false)
  return (
    <button
      type="button"
      className="button small"
      // While it says `Copied` its name starts so too (a name must begin with what is shown).
      aria-label={copied ? `Copied: ${label}` : label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text)
          setCopied(true)
          setTimeout(() => setCopied(false), 1500)
        } catch {
          setCopied(false)
        }
      }}
    >
      {copied ? 'Copied' : children}
    </button>
  )
}
