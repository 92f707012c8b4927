/**
 * Lets one benchmark file run on its own (`npx tsx bench/evm.ts`) besides `npm run bench -- evm`: when the file is
 * the entry point, runs the part, prints its figures as JSON and exits (targets and nodes it started are gone).
 */
export function runIfMain(moduleUrl: string, part: () => Promise<unknown>): void {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  part().then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
      process.exit(0);
    },
    (e) => {
      process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    },
  );
}
