DELETE FROM sessions;
