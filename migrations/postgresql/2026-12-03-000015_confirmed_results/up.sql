-- Double entry: whether a result counts because two accounts typed it alike, blind (or the
-- Leitung decided their contradiction). Results entered once before double entry was
-- switched on are not "bestätigt". Results stored before this column existed keep the
-- label they had: confirmed where their tournament has double entry.
ALTER TABLE results ADD COLUMN confirmed BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE results SET confirmed = TRUE
    WHERE tournament_id IN (SELECT id FROM tournaments WHERE double_entry);
