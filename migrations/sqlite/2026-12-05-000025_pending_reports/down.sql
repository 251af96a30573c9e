DROP TABLE pending_reports;
