-- Einzelschieber (seed 001): four players per table, seats A1 with A2 against B1 with B2.
-- A seat row then also names the player's partner and his seat; opponent_id names the
-- first seat of the other side (A1 or B1), which is who the table's result row is filed
-- under. NULL in Partnerschieber and Jassmarathon, where a team is a whole side.
ALTER TABLE seats ADD COLUMN partner_id INTEGER REFERENCES teams(id);
ALTER TABLE seats ADD COLUMN position TEXT;
