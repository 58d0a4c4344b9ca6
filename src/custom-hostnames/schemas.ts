import { Type, type Static } from '@sinclair/typebox';
import { DateTime, StringEnum } from '../core/schemas.js';

const STATUSES = ['dns_no_cname', 'dns_wrong_cname', 'internal_error', 'live'] as const;
const STATES = ['pending', 'live', 'missing', 'mismatch', 'contested', 'dns-error'] as const;

export const CustomHostnameParams = Type.Object({
  hostname: Type.String({
    minLength: 1,
    maxLength: 254,
    description: 'The custom hostname, for example "docs.example.com" (any case, a trailing dot allowed)',
  }),
});

export const CustomHostname = Type.Object(
  {
    object: Type.Literal('custom-hostname'),
    hostname: Type.String({ description: 'The hostname, in lower case without a trailing dot' }),
    target: Type.Object({ type: Type.Literal('site'), site: Type.String() }),
    isActive: Type.Boolean({ description: 'Whether the hostname is proven and routes to the site' }),
    status: StringEnum(STATUSES, {
      description:
        '`live` once proven; `dns_no_cname` while no TXT record holds the token, `dns_wrong_cname` while the ' +
        'record holds another value or also names the site that holds the hostname live, `internal_error` ' +
        'when the last look-up failed',
    }),
    verification: Type.Object(
      {
        type: Type.Literal('TXT'),
        name: Type.String({ description: 'The name of the TXT record to create: `_quire-challenge.<hostname>`' }),
        value: Type.String({ description: 'The value the record must hold' }),
        state: StringEnum(STATES, { description: 'Where the claim stands, in the service’s own words' }),
        checkedAt: Type.Optional(DateTime),
        verifiedAt: Type.Optional(DateTime),
      },
      {
        description:
          'An extension: the DNS record that proves the claim. The hostname routes nothing until the record ' +
          'holds the value; the service looks again on revalidation and every few minutes.',
      },
    ),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { title: 'CustomHostname' },
);
export type CustomHostname = Static<typeof CustomHostname>;
