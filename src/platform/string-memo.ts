/**
 * A pure function of a string that remembers its answers: each argument is worked out once, up to
 * `limit` distinct arguments, then the table starts again (memory stays bounded whatever comes in).
 */
export function remembering(work: (input: string) => string, limit: number): (input: string) => string {
  const answers = new Map<string, string>();
  return (input) => {
    let answer = answers.get(input);
    if (answer === undefined) {
      if (answers.size >= limit) answers.clear();
      answer = work(input);
      answers.set(input, answer);
    }
    return answer;
  };
}
