/**
 * The artifact types the built-in checks understand. Tenants may register
 * more; a check that applies to "any presentation" lists all of these, so that
 * code filtering by `artifactTypes.includes(type)` needs no wildcard rule.
 */
export const ARTIFACT_TYPES = ['EMAIL', 'PHONE', 'DOMAIN', 'URL', 'IP', 'NAME', 'ACCOUNT'] as const;
export type ArtifactType = (typeof ARTIFACT_TYPES)[number];

const TYPE_WORDING: Record<ArtifactType, string> = {
  EMAIL: 'email address',
  PHONE: 'phone number',
  DOMAIN: 'domain',
  URL: 'web address',
  IP: 'IP address',
  NAME: 'name',
  ACCOUNT: 'account',
};

/** How a statement names a value of this type ("the phone number"). */
export function describeType(type: string): string {
  return (TYPE_WORDING as Record<string, string | undefined>)[type] ?? 'value';
}
