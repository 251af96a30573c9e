DROP TABLE pending_uploads;
