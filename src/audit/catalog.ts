/**
 * Every action the audit log records, by its stable dotted name, with the
 * label listOrganizationAuditEventActions shows. A name, once recorded, is
 * never renamed: filters and saved queries of admins depend on it.
 */
export const AUDIT_ACTIONS = {
  'organization.settings_updated': 'Organization settings updated',
  'member.added': 'Member added',
  'member.role_changed': 'Member role changed',
  'member.sso_enabled': 'Member set to sign in with SSO',
  'member.removed': 'Member removed',
  'team.created': 'Team created',
  'team.renamed': 'Team renamed',
  'team.deleted': 'Team deleted',
  'team.members_updated': 'Team members updated',
  'team.member_set': 'Team member added or role changed',
  'team.member_removed': 'Team member removed',
  'invitation.created': 'Invitation created',
  'invitation.revoked': 'Invitation revoked',
  'invitation.accepted': 'Invitation accepted',
  'invite_link.created': 'Invite link created',
  'invite_link.updated': 'Invite link updated',
  'invite_link.deleted': 'Invite link deleted',
  'api_token.created': 'API token created',
  'api_token.revoked': 'API token revoked',
  'api_token.issued_to_member': 'API token issued to a member',
  'permission.granted': 'Permission granted',
  'permission.revoked': 'Permission revoked',
  'space.updated': 'Space visibility or permissions changed',
  'space.deleted': 'Space deleted',
  'space.restored': 'Space restored',
  'space.transferred': 'Space transferred to another organization',
  'collection.updated': 'Collection visibility or permissions changed',
  'collection.deleted': 'Collection deleted',
  'collection.transferred': 'Collection transferred to another organization',
  'change_request.archived': 'Change request archived',
  'change_request.unarchived': 'Change request brought back from the archive',
  'site.updated': 'Site visibility, address or custom hostname changed',
  'site.deleted': 'Site deleted',
  'site.published': 'Site published',
  'site.unpublished': 'Site unpublished',
  'custom_hostname.removed': 'Custom hostname removed',
  'sso.provider_created': 'SSO provider configured',
  'sso.provider_updated': 'SSO provider updated',
  'sso.provider_deleted': 'SSO provider removed',
  'integration.published': 'Integration published, its definition and secrets replaced',
  'integration.unpublished': 'Integration unpublished',
  'integration.installed': 'Integration installed',
  'integration.installation_updated': 'Integration installation updated',
  'integration.uninstalled': 'Integration uninstalled',
  'integration.space_installed': 'Integration installed on a space',
  'integration.space_uninstalled': 'Integration uninstalled from a space',
  'integration.site_installed': 'Integration installed on a site',
  'integration.site_uninstalled': 'Integration uninstalled from a site',
  'integration.signing_secret_rotated': 'Integration signing secret rotated',
  'webhook.created': 'Webhook added',
  'webhook.deleted': 'Webhook removed',
  'translation.run_requested': 'Translation run requested',
  'translation.glossary_updated': 'Translation glossary updated',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** What an event is about: the kinds of resource the actions above change. */
export type AuditTargetType =
  | 'organization'
  | 'user'
  | 'team'
  | 'invitation'
  | 'invite-link'
  | 'api-token'
  | 'space'
  | 'collection'
  | 'change-request'
  | 'site'
  | 'custom-hostname'
  | 'sso-provider'
  | 'integration'
  | 'integration-installation'
  | 'webhook'
  | 'translation';
