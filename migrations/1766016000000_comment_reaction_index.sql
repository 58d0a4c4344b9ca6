-- Up Migration

-- The reactions of a comment itself (not of its replies), in the order a
-- comments page shows them, with all it reads of them: each comment of a page
-- finds its reactions by an index-only scan, already sorted. Through the
-- unique key, whose columns follow another order, PostgreSQL chose a bitmap
-- scan of the table for each of the 50 comments (2.0 to 1.3 ms per page).
CREATE INDEX comment_reactions_comment_idx ON comment_reactions (comment_id, reacted_at, emoji, user_id)
  WHERE reply_id IS NULL;

-- Down Migration

DROP INDEX comment_reactions_comment_idx;
