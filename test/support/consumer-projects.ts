// The TypeScript projects the packed-tarball test compiles inside the installed consumer: the
// README's blocks, and a consumer importing every subpath from ESM and CommonJS.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commonJsTsconfig, withChecks } from './readme.js';

type ReadmeBlock = { code: string; runnable: boolean };

/** Writes each README block as a module (runnable ones with checks) and a strict nodenext tsconfig. */
export function writeReadmeProject(
  consumer: string,
  all: readonly ReadmeBlock[],
  blocks: readonly string[],
): void {
  blocks.forEach((block, i) => {
    writeFileSync(join(consumer, `readme-${i}.mts`), withChecks(block));
  });
  all
    .filter((block) => !block.runnable)
    .forEach((block, i) => {
      writeFileSync(join(consumer, `readme-typed-${i}.mts`), `${block.code}\nexport {};\n`);
    });
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: ['node'],
        skipLibCheck: false,
        outDir: 'out',
      },
      include: ['readme-*.mts'],
      exclude: [],
    }),
  );
}

/** Writes consumer.mts importing `specifiers`, consumer.cts requiring the root, and the README's CommonJS tsconfig. */
export function writeConsumerProject(consumer: string, specifiers: readonly string[]): void {
  const imports = specifiers.map((specifier, i) => `import * as m${i} from '${specifier}';`).join('\n');
  const uses = `console.log([${specifiers.map((_, i) => `Object.keys(m${i}).length`).join(', ')}].join(' '));`;
  const schema =
    "import tokenSchema from 'tollgate/schema/token.schema.json' with { type: 'json' };\nconsole.log(typeof tokenSchema);";
  writeFileSync(join(consumer, 'consumer.mts'), `${imports}\n${uses}\n${schema}\n`);
  // npm init -y makes a CommonJS project: `import` here compiles to require().
  writeFileSync(
    join(consumer, 'consumer.cts'),
    "import { authorize } from 'tollgate';\nimport { tollgate } from 'tollgate/node';\nimport { createRedisStore } from 'tollgate/redis';\nconsole.log(authorize({ method: 'GET', path: '/notifications' }, { kind: 'classic', scopes: ['notifications'] }).status, typeof tollgate, typeof createRedisStore);\n",
  );
  // The README's tsconfig for CommonJS projects, as printed, plus what this consumer needs besides.
  const readmeConfig = commonJsTsconfig();
  writeFileSync(
    join(consumer, 'tsconfig.consumer.json'),
    JSON.stringify({
      compilerOptions: {
        ...readmeConfig.compilerOptions,
        lib: ['es2022', 'dom'],
        types: ['node'],
        resolveJsonModule: true,
        outDir: 'out-consumer',
      },
      files: ['consumer.mts', 'consumer.cts'],
    }),
  );
}
