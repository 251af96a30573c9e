DROP TABLE tafel_entry_modes;
