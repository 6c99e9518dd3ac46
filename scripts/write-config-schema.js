// Writes packages/core/schema/airlock.config.schema.json (shipped as @airlock/core/config-schema.json) from the one
// config definition, packages/core/src/config/config-definition.ts, once `tsc -b` has built it:
// `npx tsc -b && node scripts/write-config-schema.js`. The file is checked in; config-file.test.ts fails when it
// differs from what the definition generates, so a key added to the definition without rerunning this is caught.
// It is written as prettier formats it, so `npm run format:check` passes on what this script writes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { configJsonSchema } from '../packages/core/dist/config/config-definition.js';

const target = new URL('../packages/core/schema/airlock.config.schema.json', import.meta.url);
const options = (await prettier.resolveConfig(fileURLToPath(target))) ?? {};
writeFileSync(target, await prettier.format(JSON.stringify(configJsonSchema()), { ...options, parser: 'json' }));
