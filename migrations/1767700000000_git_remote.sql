-- Up Migration

-- Every space is a Git remote (/git/{spaceId}.git). The commit each revision
-- of the space's own line is on its branch main: built from the revision's
-- content, its first parent the commit of the revision before it that has
-- one, its second the commit a push made it from (when a push did). Commits
-- are deterministic, so an instance whose repository is gone builds the same
-- ones again from these rows; a pushed commit's ancestors are traced back to
-- the revision they stand for here. The author is kept as the first commit
-- named them, so that a user renamed since does not change a commit built again.
CREATE TABLE git_remote_commits (
  organization_id text NOT NULL,
  space_id text NOT NULL,
  revision_id text NOT NULL,
  commit_sha text NOT NULL,
  pushed_sha text,
  author_name text,
  author_email text,
  created_at timestamptz NOT NULL,
  CONSTRAINT git_remote_commits_pkey PRIMARY KEY (revision_id),
  CONSTRAINT git_remote_commits_sha_format CHECK (commit_sha ~ '^[0-9a-f]{40}$'),
  CONSTRAINT git_remote_commits_pushed_sha_format CHECK (pushed_sha ~ '^[0-9a-f]{40}$'),
  CONSTRAINT git_remote_commits_space_fkey FOREIGN KEY (organization_id, space_id)
    REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT git_remote_commits_revision_fkey FOREIGN KEY (revision_id) REFERENCES revisions (id) ON DELETE CASCADE
);
CREATE INDEX git_remote_commits_space_sha_idx ON git_remote_commits (space_id, commit_sha);
CREATE INDEX git_remote_commits_organization_space_idx ON git_remote_commits (organization_id, space_id);

-- A branch pushed to the space: the change request it opened, and the commit
-- the branch is at with the change request's revision that commit holds. A
-- fetch of the branch gives that commit while the change request has not
-- moved, and a commit of its content on top of it once it has.
CREATE TABLE git_remote_branches (
  organization_id text NOT NULL,
  space_id text NOT NULL,
  name text NOT NULL,
  change_request_id text NOT NULL,
  commit_sha text NOT NULL,
  revision_id text NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT git_remote_branches_pkey PRIMARY KEY (space_id, name),
  CONSTRAINT git_remote_branches_change_request_key UNIQUE (change_request_id),
  CONSTRAINT git_remote_branches_name_length CHECK (char_length(name) BETWEEN 1 AND 200),
  CONSTRAINT git_remote_branches_sha_format CHECK (commit_sha ~ '^[0-9a-f]{40}$'),
  CONSTRAINT git_remote_branches_space_fkey FOREIGN KEY (organization_id, space_id)
    REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT git_remote_branches_change_request_fkey FOREIGN KEY (change_request_id)
    REFERENCES change_requests (id) ON DELETE CASCADE,
  CONSTRAINT git_remote_branches_revision_fkey FOREIGN KEY (revision_id) REFERENCES revisions (id) ON DELETE CASCADE
);
CREATE INDEX git_remote_branches_organization_space_idx ON git_remote_branches (organization_id, space_id);
CREATE INDEX git_remote_branches_revision_idx ON git_remote_branches (revision_id);

-- Down Migration

DROP TABLE git_remote_branches;
DROP TABLE git_remote_commits;
