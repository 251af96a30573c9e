-- Per-Passe draw option: keep teams of the same Verein apart where possible.
ALTER TABLE tournaments ADD COLUMN separate_clubs BOOLEAN NOT NULL DEFAULT FALSE;
