import { BadRequestError } from '../core/errors.js';
import { INTEGRATION_LIMITS, type ConfigurationProperty, type IntegrationConfiguration } from './schemas.js';

/** Whether the configuration is a schema of properties (rather than a ContentKit component, which it cannot check). */
export function propertiesOf(
  configuration: IntegrationConfiguration | undefined,
): { properties: Record<string, ConfigurationProperty>; required: string[] } | undefined {
  if (!configuration || !('properties' in configuration)) return undefined;
  return { properties: configuration.properties, required: configuration.required ?? [] };
}

function valueProblem(property: ConfigurationProperty, value: unknown): string | undefined {
  switch (property.type) {
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      if (value.length > 10_000) return 'must NOT have more than 10000 characters';
      if (property.enum && !property.enum.includes(value)) {
        return `must be one of: ${property.enum.map((option) => JSON.stringify(option)).join(', ')}`;
      }
      return undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'button':
      return 'is a button: it takes no value';
  }
}

/**
 * Checks the configuration an installation is given against the schema the
 * integration published for that kind of installation (`kind`: account,
 * space or site): known properties only, each of its type, every required
 * one present. Without a schema, any object within the size bound is taken.
 */
export function checkConfiguration(
  schema: IntegrationConfiguration | undefined,
  kind: 'account' | 'space' | 'site',
  configuration: Record<string, unknown>,
): void {
  const field = 'body/configuration';
  if (Buffer.byteLength(JSON.stringify(configuration)) > INTEGRATION_LIMITS.installationConfigurationBytes) {
    throw new BadRequestError(
      `${field} must NOT be larger than ${INTEGRATION_LIMITS.installationConfigurationBytes} bytes of JSON`,
    );
  }
  const declared = propertiesOf(schema);
  if (!declared) return;
  for (const [name, value] of Object.entries(configuration)) {
    const property = Object.hasOwn(declared.properties, name) ? declared.properties[name] : undefined;
    if (!property) {
      throw new BadRequestError(`${field}/${name} is not a property of the integration’s ${kind} configuration`);
    }
    const problem = valueProblem(property, value);
    if (problem) throw new BadRequestError(`${field}/${name} ${problem}`);
  }
  for (const name of declared.required) {
    if (!Object.hasOwn(configuration, name)) throw new BadRequestError(`${field}/${name} is required`);
  }
}
