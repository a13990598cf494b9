/**
 * A failed step's failures in a few lines, printed again beside the summary: a CI log is often read from its
 * end, and a step's whole output can be long and printed minutes earlier. For vitest, each failed test's name
 * and the first line of its error; for any other step, the last lines it printed.
 */
export function whatFailed(output, max = 40) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences of coloured output
  const lines = output.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
  const picked = [];
  lines.forEach((line, i) => {
    if (!/^\s*FAIL\s/.test(line)) return;
    picked.push(line.trim());
    const error = lines.slice(i + 1, i + 8).find((l) => /\w*Error\b|expected|Timed out|timeout/i.test(l));
    if (error) picked.push(`    ${error.trim()}`);
  });
  const shown = picked.length > 0 ? picked : lines.filter((l) => l.trim() !== "").slice(-20);
  return shown.slice(0, max);
}
