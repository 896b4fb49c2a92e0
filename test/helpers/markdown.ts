import assert from 'node:assert/strict';

export interface ShellBlock {
  line: number;
  code: string;
  skip: string | null;
}

/** The ```sh blocks of a Markdown text, each with the skip reason its `<!-- readme-test: skip (why) -->` marker gives, if any. */
export function shellBlocks(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue;
    const marker = /^<!-- readme-test: skip \((.+)\) -->$/.exec(lines[i - 1] ?? '');
    const end = lines.indexOf('```', i + 1);
    assert.ok(end > i, `line ${i + 1}: the block is not closed`);
    blocks.push({ line: i + 1, code: lines.slice(i + 1, end).join('\n'), skip: marker?.[1] ?? null });
    i = end;
  }
  return blocks;
}
