-- #79: a category may follow a rule over the register's persons (all women, all men, a
-- Jahrgang up to or from a year); `hand` is the list set by the office alone.
ALTER TABLE categories ADD COLUMN rule TEXT NOT NULL DEFAULT 'hand';
ALTER TABLE categories ADD COLUMN rule_year INTEGER;
-- `member`: the office's choice (for a category with a rule: against it, member or not;
-- by hand: a member); NULL: no choice. `closed_by_rule`: what the rule gave when the
-- tournament was closed (the official category rankings do not follow later edits of the
-- register).
ALTER TABLE team_categories ADD COLUMN member BOOLEAN DEFAULT TRUE;
ALTER TABLE team_categories ADD COLUMN closed_by_rule BOOLEAN NOT NULL DEFAULT FALSE;
-- What a category rule asks of a person (office only, like the Jahrgang).
ALTER TABLE persons ADD COLUMN geschlecht TEXT;
