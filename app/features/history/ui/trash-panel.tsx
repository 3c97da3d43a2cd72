import { TrashList } from './trash-list'
import { SidePanel } from '~/ui/side-panel'

/** The board's Trash panel: the project's deleted goals, activities, releases and features. */
export function TrashPanel({ projectId, workspaceId, canEdit, onClose }: { projectId: string; workspaceId: string; canEdit: boolean; onClose: () => void }) {
  return (
    <SidePanel title="Trash" onClose={onClose}>
      <TrashList listPath={`/v1/projects/${projectId}/trash`} workspaceId={workspaceId} canEdit={canEdit} />
    </SidePanel>
  )
}
