// Answers `new RegExp(pattern).test(input)` for the differential runner, one JSON request a line:
// {"p": pattern, "s": input} -> true, false or "syntax" (JavaScript refuses the pattern).
const readline = require('readline');
const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const { p, s } = JSON.parse(line);
  let answer;
  try { answer = new RegExp(p).test(s); } catch (error) { answer = 'syntax'; }
  process.stdout.write(JSON.stringify(answer) + '\n');
});
