// Runs each command given as a JSON argument (an array of argv arrays) in this one process, with
// the real process streams; prints `exit <code>` per command on stderr. For the closed-pipe test.
import { runCli } from '../../src/cli/main.js';
import { processIo } from '../../src/cli/process-io.js';

const commands = JSON.parse(process.argv[2] ?? '[]') as string[][];
for (const args of commands) {
  const code = await runCli(args, processIo());
  // Let the failed writes surface before the next command.
  await new Promise((resolve) => setTimeout(resolve, 20));
  process.stderr.write(`exit ${code}\n`);
}
