-- Up Migration

-- listOrganizationInstallations pages an organization's installations by creation time.
CREATE INDEX integration_installations_organization_created_idx
  ON integration_installations (organization_id, created_at, id);

-- Down Migration

DROP INDEX integration_installations_organization_created_idx;
