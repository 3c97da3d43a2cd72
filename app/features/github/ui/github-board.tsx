import { useBoard } from '~/features/board/ui/board-context'
import { GithubDialog } from './github-dialog'
import { GithubStoppedNotice } from './issue-controls'
import { useGithubNotices } from './use-github'

/**
 * The GitHub parts of a member's board: the refused-token notice, the GitHub dialog, and the
 * live refresh of the link. Not on the public link or in demo mode.
 */
export function GithubBoard({ open, setOpen }: { open: boolean; setOpen: (open: boolean) => void }) {
  const { mode } = useBoard()
  useGithubNotices()
  if (mode === 'demo') return null
  return (
    <>
      <GithubStoppedNotice onFix={() => setOpen(true)} />
      {open ? <GithubDialog onClose={() => setOpen(false)} /> : null}
    </>
  )
}
