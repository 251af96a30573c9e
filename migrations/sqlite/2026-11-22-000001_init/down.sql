DROP TABLE audit_log;
DROP TABLE results;
DROP TABLE seats;
DROP TABLE teams;
DROP TABLE tournaments;
DROP TABLE sessions;
DROP TABLE users;
