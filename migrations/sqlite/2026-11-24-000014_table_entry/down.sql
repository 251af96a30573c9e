DROP TABLE table_reports;
DROP TABLE table_access;
DROP TABLE table_codes;
DROP TABLE table_entry;
