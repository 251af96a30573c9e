-- Double entry: whether a result counts because two accounts typed it alike, blind (or the
-- Leitung decided their contradiction). Results entered once before double entry was
-- switched on are not "bestätigt". Results stored before this column existed keep the
-- label they had: confirmed where their tournament has double entry.
ALTER TABLE results ADD COLUMN confirmed BOOLEAN NOT NULL DEFAULT 0;
UPDATE results SET confirmed = 1
    WHERE tournament_id IN (SELECT id FROM tournaments WHERE double_entry = 1);
