import { useParams } from 'react-router'
import { CardDialog, type DialogKind } from './card-dialog'

/** The body of every overlay route (/m/, /sw/, /f/, /w/, /p/): a dialog over the board. */
export function cardDialogRoute(kind: DialogKind, param: string) {
  return function CardDialogRoute() {
    const params = useParams()
    return <CardDialog key={params[param]} kind={kind} id={params[param] ?? ''} />
  }
}
