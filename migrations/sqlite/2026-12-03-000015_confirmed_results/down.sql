ALTER TABLE results DROP COLUMN confirmed;
