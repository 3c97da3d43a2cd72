import { cardDialogRoute } from '~/features/board/ui/card-dialog-route'

export default cardDialogRoute('milestone', 'milestoneId')
