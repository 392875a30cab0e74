/** The indefinite article of a word as messages spell it: `an \`anonymous\` token`, `a \`classic\` token`. */
export function article(word: string): 'a' | 'an' {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}
