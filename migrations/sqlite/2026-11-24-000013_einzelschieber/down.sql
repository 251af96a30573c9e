ALTER TABLE seats DROP COLUMN position;
ALTER TABLE seats DROP COLUMN partner_id;
