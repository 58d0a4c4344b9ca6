-- Up Migration

-- A change request's description (0.202.0's and 0.143.2's `description`, a
-- JSON document): its markdown, the stored source, and the document made from
-- it when written, answered as it is.
ALTER TABLE change_requests ADD COLUMN description text;
ALTER TABLE change_requests ADD COLUMN description_document jsonb;
ALTER TABLE change_requests
  ADD CONSTRAINT change_requests_description_length CHECK (char_length(description) <= 20000);

-- Down Migration

ALTER TABLE change_requests DROP CONSTRAINT change_requests_description_length;
ALTER TABLE change_requests DROP COLUMN description_document;
ALTER TABLE change_requests DROP COLUMN description;
