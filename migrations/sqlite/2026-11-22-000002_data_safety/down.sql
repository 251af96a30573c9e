DROP TABLE login_failures;
DROP TABLE pending_entries;
ALTER TABLE tournaments DROP COLUMN double_entry_same_user;
ALTER TABLE tournaments DROP COLUMN double_entry;
