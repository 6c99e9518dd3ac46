// A TypeDoc plugin for `npm run docs:api` (typedoc.json): each module of a package is named by the import that
// reaches it. TypeDoc names a package's modules after its `exports` keys with the './' cut, so the root ('.') would
// be an empty name and './postgres' plain 'postgres'; readers import '@airlock/core' and '@airlock/core/postgres'.
import { Converter, ReflectionKind } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const pkg = context.project.packageName ?? context.project.name;
    for (const module of context.project.getChildrenByKind(ReflectionKind.Module)) {
      module.name = module.name === '' ? pkg : `${pkg}/${module.name}`;
    }
  });
}
