-- Up Migration

-- A comment on a space's content (change_request_id NULL) or on a change
-- request's. Like the content tables, it references its space by
-- (organization_id, space_id): a transfer carries it along, a purge removes it.
CREATE TABLE comments (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  change_request_id text,
  -- The revision the target was in when the comment was posted.
  revision_id text NOT NULL,
  -- The page commented on, and the version of it the comment saw: a page whose
  -- version differs now is reported `outdated`.
  page_id text,
  page_version_id text,
  -- Where the page was, for a comment whose page is gone since.
  page_path text,
  node_id text,
  node_preview text,
  posted_by text NOT NULL,
  posted_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  edited_at timestamptz,
  body text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'open',
  resolved_at timestamptz,
  resolved_by text,
  replies_count integer NOT NULL DEFAULT 0,
  -- The thread within the space: '' for the space's own, else the change
  -- request. Never NULL, so that equality on it lets one index both filter
  -- and order a thread's comments.
  thread_key text GENERATED ALWAYS AS (coalesce(change_request_id, '')) STORED NOT NULL,
  CONSTRAINT comments_pkey PRIMARY KEY (id),
  CONSTRAINT comments_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT comments_change_request_fkey FOREIGN KEY (change_request_id) REFERENCES change_requests (id) ON DELETE CASCADE,
  CONSTRAINT comments_page_version_fkey FOREIGN KEY (page_version_id) REFERENCES page_versions (id) ON DELETE SET NULL,
  CONSTRAINT comments_posted_by_fkey FOREIGN KEY (posted_by) REFERENCES users (id),
  CONSTRAINT comments_resolved_by_fkey FOREIGN KEY (resolved_by) REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT comments_status_enum CHECK (status IN ('open', 'resolved')),
  CONSTRAINT comments_resolved_fields CHECK ((status = 'resolved') = (resolved_at IS NOT NULL)),
  CONSTRAINT comments_node_needs_page CHECK (node_id IS NULL OR page_id IS NOT NULL),
  CONSTRAINT comments_replies_count_nonnegative CHECK (replies_count >= 0),
  CONSTRAINT comments_body_length CHECK (char_length(body) <= 65536)
);
-- The lists: one thread, in posting order, whole or by status, by author or
-- by page. Each serves both the filter and the order, so a page deep in the
-- list costs what the first does.
CREATE INDEX comments_thread_idx ON comments (space_id, thread_key, posted_at, id);
CREATE INDEX comments_thread_status_idx ON comments (space_id, thread_key, status, posted_at, id);
CREATE INDEX comments_thread_author_idx ON comments (space_id, thread_key, posted_by, posted_at, id);
CREATE INDEX comments_thread_page_idx ON comments (space_id, thread_key, page_id, posted_at, id) WHERE page_id IS NOT NULL;
CREATE INDEX comments_organization_idx ON comments (organization_id);
CREATE INDEX comments_change_request_idx ON comments (change_request_id) WHERE change_request_id IS NOT NULL;
CREATE INDEX comments_page_version_idx ON comments (page_version_id) WHERE page_version_id IS NOT NULL;

CREATE TABLE comment_replies (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  comment_id text NOT NULL,
  posted_by text NOT NULL,
  posted_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  edited_at timestamptz,
  body text NOT NULL DEFAULT '',
  CONSTRAINT comment_replies_pkey PRIMARY KEY (id),
  CONSTRAINT comment_replies_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT comment_replies_comment_fkey FOREIGN KEY (comment_id) REFERENCES comments (id) ON DELETE CASCADE,
  CONSTRAINT comment_replies_posted_by_fkey FOREIGN KEY (posted_by) REFERENCES users (id),
  CONSTRAINT comment_replies_body_length CHECK (char_length(body) <= 65536)
);
CREATE INDEX comment_replies_comment_idx ON comment_replies (comment_id, posted_at, id);
CREATE INDEX comment_replies_organization_idx ON comment_replies (organization_id);
-- Who commented in a space: the commenters lists read replies by space and author.
CREATE INDEX comment_replies_space_author_idx ON comment_replies (space_id, posted_by);

-- One row per user, emoji and comment or reply: a user counts once per emoji,
-- and concurrent reactions are inserts that cannot overwrite each other.
CREATE TABLE comment_reactions (
  organization_id text NOT NULL,
  space_id text NOT NULL,
  comment_id text NOT NULL,
  -- NULL: the reaction is on the comment itself.
  reply_id text,
  emoji text NOT NULL,
  user_id text NOT NULL,
  reacted_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT comment_reactions_key UNIQUE NULLS NOT DISTINCT (comment_id, reply_id, emoji, user_id),
  CONSTRAINT comment_reactions_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT comment_reactions_comment_fkey FOREIGN KEY (comment_id) REFERENCES comments (id) ON DELETE CASCADE,
  CONSTRAINT comment_reactions_reply_fkey FOREIGN KEY (reply_id) REFERENCES comment_replies (id) ON DELETE CASCADE,
  CONSTRAINT comment_reactions_user_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT comment_reactions_emoji_length CHECK (octet_length(emoji) BETWEEN 1 AND 16)
);
CREATE INDEX comment_reactions_reply_idx ON comment_reactions (reply_id) WHERE reply_id IS NOT NULL;
CREATE INDEX comment_reactions_organization_idx ON comment_reactions (organization_id);

-- A user asked to review a change request; asking again changes nothing.
CREATE TABLE change_request_reviewers (
  organization_id text NOT NULL,
  space_id text NOT NULL,
  change_request_id text NOT NULL,
  user_id text NOT NULL,
  requested_by text,
  -- The change request's revision when the review was asked for.
  revision_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT change_request_reviewers_pkey PRIMARY KEY (change_request_id, user_id),
  CONSTRAINT change_request_reviewers_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT change_request_reviewers_change_request_fkey FOREIGN KEY (change_request_id) REFERENCES change_requests (id) ON DELETE CASCADE,
  CONSTRAINT change_request_reviewers_user_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT change_request_reviewers_requested_by_fkey FOREIGN KEY (requested_by) REFERENCES users (id) ON DELETE SET NULL
);
-- The list, oldest first, keyset on (created_at, user_id).
CREATE INDEX change_request_reviewers_list_idx ON change_request_reviewers (change_request_id, created_at, user_id);
CREATE INDEX change_request_reviewers_organization_idx ON change_request_reviewers (organization_id);

-- Every comment of a thread, open or resolved, beside the open ones the
-- spaces and change requests already count: the counts of the unfiltered and
-- status-filtered lists, kept in the transactions that change them.
ALTER TABLE spaces ADD COLUMN comments_total_count integer NOT NULL DEFAULT 0,
  ADD CONSTRAINT spaces_comments_total_count_nonnegative CHECK (comments_total_count >= 0);
ALTER TABLE change_requests ADD COLUMN comments_total_count integer NOT NULL DEFAULT 0,
  ADD CONSTRAINT change_requests_comments_total_count_nonnegative CHECK (comments_total_count >= 0);

-- Down Migration

ALTER TABLE change_requests DROP COLUMN comments_total_count;
ALTER TABLE spaces DROP COLUMN comments_total_count;
DROP TABLE change_request_reviewers;
DROP TABLE comment_reactions;
DROP TABLE comment_replies;
DROP TABLE comments;
