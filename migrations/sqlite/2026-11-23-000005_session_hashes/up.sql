-- Sessions are stored by the hash of their token from now on; the old ones end.
DELETE FROM sessions;
