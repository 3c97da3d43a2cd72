import { cardDialogRoute } from '~/components/board/card-dialog-route'

export default cardDialogRoute('subworkflow', 'subWorkflowId')
