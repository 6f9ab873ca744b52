// A TypeDoc plugin: names each entry point by the import a user writes (`toolloop`,
// `toolloop/openai`, …) instead of its file path (`index`, `openai`, …).
import { Converter, ReflectionKind } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      module.name = module.name === 'index' ? 'toolloop' : `toolloop/${module.name}`;
    }
  });
}
