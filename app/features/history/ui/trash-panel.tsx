import { TrashList } from './trash-list'
import { SidePanel } from '~/ui/side-panel'

/** The board's Trash panel: the project's deleted goals, activities, releases and features. */
type Props = {
  projectId: string
  workspaceId: string
  commandsUrl: string
  canEdit: boolean
  onClose: () => void
}

export function TrashPanel({ projectId, workspaceId, commandsUrl, canEdit, onClose }: Props) {
  return (
    <SidePanel title="Trash" onClose={onClose}>
      <TrashList
        listPath={`/v1/projects/${projectId}/trash`}
        workspaceId={workspaceId}
        commandsUrl={commandsUrl}
        canEdit={canEdit}
      />
    </SidePanel>
  )
}
