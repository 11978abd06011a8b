/** Go's `strconv.ParseBool`: 1 for true, 0 for false, -1 when the text is not one of Go's spellings. */
export function goParseBool(s: string): number {
  switch (s) {
    case '1':
    case 't':
    case 'T':
    case 'TRUE':
    case 'true':
    case 'True':
      return 1;
    case '0':
    case 'f':
    case 'F':
    case 'FALSE':
    case 'false':
    case 'False':
      return 0;
    default:
      return -1;
  }
}
