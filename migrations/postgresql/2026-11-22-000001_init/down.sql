DROP TABLE single_registrations, suspended_final_visas, tafel_entry_modes, tafel_gongs,
    tafel_lines, round_clocks, marathon_rules, pending_uploads, login_throttle,
    pending_entries, audit_log, results, seats, teams, tournaments, sessions, users;
