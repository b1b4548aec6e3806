// Where the server's error description points in the editor: its messages give "line L,
// column C" of the submitted body (or of the resulting document, with the body's line beside
// it); the editor's line is that less the lines the page wraps around the edited text.

export interface Pin {
  line: number;
  column?: number;
}

export function pinError(description: string, linesBefore: number): Pin | null {
  const inBody = /\(line (\d+) of the submitted body\)/.exec(description);
  if (inBody) return within(Number(inBody[1]) - linesBefore);
  for (const m of description.matchAll(/line (\d+)(?:, column (\d+))?( of the resulting document)?/g)) {
    if (m[3]) continue;
    const pin = within(Number(m[1]) - linesBefore);
    return pin && m[2] ? { ...pin, column: Number(m[2]) } : pin;
  }
  return null;
}

const within = (line: number): Pin | null => (line >= 1 ? { line } : null);
