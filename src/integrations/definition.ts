import { BadRequestError } from '../core/errors.js';
import { propertiesOf } from './configuration.js';
import type { PublishIntegrationBody } from './schemas.js';

/** The first value that occurs twice, if any. */
function firstDuplicate(values: readonly string[]): string | undefined {
  const seen = new Set<string>();
  return values.find((value) => (seen.has(value) ? true : (seen.add(value), false)));
}

/**
 * What the schema cannot say of a published definition: ids unique among the
 * blocks and among the content sources, and configuration schemas that
 * require only properties they declare.
 */
export function checkDefinition(body: PublishIntegrationBody): void {
  const block = firstDuplicate((body.blocks ?? []).map((item) => item.id));
  if (block !== undefined) throw new BadRequestError(`body/blocks has two blocks with the id ${JSON.stringify(block)}`);
  const source = firstDuplicate((body.contentSources ?? []).map((item) => item.id));
  if (source !== undefined) {
    throw new BadRequestError(`body/contentSources has two content sources with the id ${JSON.stringify(source)}`);
  }
  for (const [kind, configuration] of Object.entries(body.configurations ?? {})) {
    const declared = propertiesOf(configuration);
    const unknown = declared?.required.find((name) => !Object.hasOwn(declared.properties, name));
    if (unknown !== undefined) {
      throw new BadRequestError(
        `body/configurations/${kind}/required names ${JSON.stringify(unknown)}, which is not one of its properties`,
      );
    }
  }
}
