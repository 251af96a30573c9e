-- Nothing to undo: see up.sql.
SELECT 1;
