-- Up Migration

-- The JSON document made from the markdown beside it, once, when it is
-- written: reads never parse markdown. `json`, not `jsonb`, keeps the keys in
-- the order the API shows them. NULL on rows written before it was kept; the
-- first read that needs one makes it and fills it in.
ALTER TABLE documents ADD COLUMN document json;
ALTER TABLE comments ADD COLUMN body_document json;
ALTER TABLE comment_replies ADD COLUMN body_document json;

-- Down Migration

ALTER TABLE comment_replies DROP COLUMN body_document;
ALTER TABLE comments DROP COLUMN body_document;
ALTER TABLE documents DROP COLUMN document;
