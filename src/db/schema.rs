// Mirrors migrations/; kept by hand because the diesel CLI is not part of the build.

diesel::table! {
    users (id) {
        id -> Integer,
        username -> Text,
        password_hash -> Text,
        role -> Text,
        active -> Bool,
        created_at -> Timestamp,
    }
}

diesel::table! {
    sessions (token) {
        token -> Text,
        user_id -> Integer,
        csrf_token -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        flash -> Nullable<Text>,
    }
}

diesel::table! {
    tournaments (id) {
        id -> Integer,
        name -> Text,
        date -> Date,
        location -> Text,
        mode -> Text,
        passen -> Integer,
        spiele_per_passe -> Integer,
        pauschale -> Integer,
        closed -> Bool,
        public -> Bool,
        draw_mode -> Text,
        draw_seed -> Nullable<BigInt>,
        version -> Integer,
        created_at -> Timestamp,
        double_entry -> Bool,
        double_entry_same_user -> Bool,
        separate_clubs -> Bool,
        counted_best -> Nullable<Integer>,
        prize_others -> Nullable<Text>,
        absenden_step -> Nullable<Integer>,
        club_best -> Nullable<Integer>,
    }
}

diesel::table! {
    persons (id) {
        id -> Integer,
        name -> Text,
        vorname -> Text,
        verein -> Nullable<Text>,
        ort -> Nullable<Text>,
        jahrgang -> Nullable<Integer>,
        email -> Nullable<Text>,
        phone -> Nullable<Text>,
        created_at -> Timestamp,
        geschlecht -> Nullable<Text>,
    }
}

diesel::table! {
    team_persons (team_id, seat) {
        team_id -> Integer,
        seat -> Integer,
        person_id -> Integer,
        tournament_id -> Integer,
    }
}

diesel::table! {
    categories (id) {
        id -> Integer,
        tournament_id -> Integer,
        position -> Integer,
        name -> Text,
        rule -> Text,
        rule_year -> Nullable<Integer>,
    }
}

diesel::table! {
    team_categories (team_id, category_id) {
        team_id -> Integer,
        category_id -> Integer,
        tournament_id -> Integer,
        member -> Nullable<Bool>,
        closed_by_rule -> Bool,
    }
}

diesel::table! {
    prizes (id) {
        id -> Integer,
        tournament_id -> Integer,
        position -> Integer,
        prize -> Text,
        title -> Nullable<Text>,
        startnummer -> Nullable<Integer>,
        category -> Nullable<Text>,
    }
}

diesel::table! {
    pending_entries (id) {
        id -> Integer,
        tournament_id -> Integer,
        passe -> Integer,
        table_no -> Integer,
        user_id -> Integer,
        points_a -> Integer,
        points_b -> Integer,
        matches_a -> Integer,
        matches_b -> Integer,
        created_at -> Timestamp,
    }
}

diesel::table! {
    tafel_entry_modes (tournament_id, passe, table_no) {
        tournament_id -> Integer,
        passe -> Integer,
        table_no -> Integer,
        multiplied -> Bool,
    }
}

diesel::table! {
    pending_uploads (token) {
        token -> Text,
        tournament_id -> Integer,
        user_id -> Integer,
        created_at -> Timestamp,
        data -> Binary,
    }
}

diesel::table! {
    login_throttle (kind, subject) {
        kind -> Text,
        subject -> Text,
        failures -> Integer,
        last_failure -> Timestamp,
        blocked_until -> Nullable<Timestamp>,
    }
}

diesel::table! {
    teams (id) {
        id -> Integer,
        tournament_id -> Integer,
        startnummer -> Integer,
        name -> Nullable<Text>,
        player1 -> Text,
        player2 -> Text,
        club -> Nullable<Text>,
        place -> Nullable<Text>,
        los -> Nullable<Integer>,
        status -> Text,
        out_passe -> Nullable<Integer>,
        out_reason -> Nullable<Text>,
        final_visa_by -> Nullable<Integer>,
        final_visa_at -> Nullable<Timestamp>,
        final_visa_name -> Nullable<Text>,
    }
}

diesel::table! {
    seats (id) {
        id -> Integer,
        tournament_id -> Integer,
        passe -> Integer,
        team_id -> Integer,
        table_no -> Nullable<Integer>,
        opponent_id -> Nullable<Integer>,
        partner_id -> Nullable<Integer>,
        position -> Nullable<Text>,
    }
}

diesel::table! {
    results (id) {
        id -> Integer,
        tournament_id -> Integer,
        passe -> Integer,
        table_no -> Integer,
        team_a_id -> Integer,
        team_b_id -> Integer,
        points_a -> Integer,
        points_b -> Integer,
        matches_a -> Integer,
        matches_b -> Integer,
        visa_a_by -> Nullable<Integer>,
        visa_a_at -> Nullable<Timestamp>,
        visa_b_by -> Nullable<Integer>,
        visa_b_at -> Nullable<Timestamp>,
        version -> Integer,
        details -> Nullable<Text>,
        visa_a_name -> Nullable<Text>,
        visa_b_name -> Nullable<Text>,
        confirmed -> Bool,
    }
}

diesel::table! {
    marathon_rules (tournament_id) {
        tournament_id -> Integer,
        round_minutes -> Integer,
        target -> Integer,
        berg -> Integer,
        match_bonus -> Integer,
        mult_eichel -> Integer,
        mult_rose -> Integer,
        mult_schelle -> Integer,
        mult_schilte -> Integer,
        mult_obenabe -> Integer,
        mult_undenufe -> Integer,
        striche_match -> Integer,
        striche_berg -> Integer,
        striche_sieg -> Integer,
        striche_schneider -> Integer,
        striche_gong -> Integer,
    }
}

diesel::table! {
    differenzler_rules (tournament_id) {
        tournament_id -> Integer,
        match_bonus -> Bool,
        stoeck -> Bool,
        count_nuller -> Bool,
        pauschale_average -> Bool,
    }
}

diesel::table! {
    round_clocks (tournament_id, passe) {
        tournament_id -> Integer,
        passe -> Integer,
        started_at -> Timestamp,
        paused_at -> Nullable<Timestamp>,
        paused_seconds -> Integer,
        ended_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    tafel_lines (id) {
        id -> Integer,
        tournament_id -> Integer,
        passe -> Integer,
        table_no -> Integer,
        line_no -> Integer,
        trump -> Text,
        cards_a -> Nullable<Integer>,
        match_side -> Nullable<Text>,
        weis_a -> Integer,
        weis_b -> Integer,
        stoeck -> Nullable<Text>,
        first -> Nullable<Text>,
        ruling -> Nullable<Text>,
    }
}

diesel::table! {
    tafel_gongs (tournament_id, passe, table_no) {
        tournament_id -> Integer,
        passe -> Integer,
        table_no -> Integer,
    }
}

diesel::table! {
    audit_log (id) {
        id -> Integer,
        at -> Timestamp,
        user_id -> Nullable<Integer>,
        username -> Text,
        tournament_id -> Nullable<Integer>,
        entity -> Text,
        entity_id -> Nullable<Integer>,
        action -> Text,
        before -> Nullable<Text>,
        after -> Nullable<Text>,
    }
}

diesel::table! {
    suspended_final_visas (team_id) {
        team_id -> Integer,
        cause_team_id -> Integer,
        visa_by -> Nullable<Integer>,
        visa_name -> Nullable<Text>,
        visa_at -> Timestamp,
        total -> Integer,
    }
}

diesel::table! {
    single_registrations (id) {
        id -> Integer,
        tournament_id -> Integer,
        player -> Text,
        club -> Nullable<Text>,
        place -> Nullable<Text>,
    }
}

diesel::table! {
    table_entry (tournament_id) {
        tournament_id -> Integer,
        passe_open -> Nullable<Integer>,
    }
}

diesel::table! {
    table_codes (team_id) {
        team_id -> Integer,
        tournament_id -> Integer,
        code -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    table_access (token) {
        token -> Text,
        tournament_id -> Integer,
        team_id -> Integer,
        csrf_token -> Text,
        address -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    table_reports (id) {
        id -> Integer,
        tournament_id -> Integer,
        passe -> Integer,
        table_no -> Integer,
        reporter_id -> Integer,
        points_a -> Integer,
        points_b -> Integer,
        state -> Text,
        answer_by -> Nullable<Integer>,
        answer_points_a -> Nullable<Integer>,
        answer_points_b -> Nullable<Integer>,
        note -> Nullable<Text>,
        tafel -> Nullable<Text>,
        version -> Integer,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    series (id) {
        id -> Integer,
        name -> Text,
        season -> Text,
        points -> Text,
        points_table -> Nullable<Text>,
        unit -> Text,
        best -> Nullable<Integer>,
        minimum -> Integer,
        final_factor -> Integer,
        qualification -> Text,
        qualify_value -> Nullable<Integer>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    series_tournaments (series_id, tournament_id) {
        series_id -> Integer,
        tournament_id -> Integer,
        is_final -> Bool,
    }
}

diesel::table! {
    series_wildcards (series_id, person_id) {
        series_id -> Integer,
        person_id -> Integer,
    }
}

diesel::table! {
    instance (id) {
        id -> Integer,
        hall_name -> Text,
        secret_key -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    tournament_uuids (tournament_id) {
        tournament_id -> Integer,
        uuid -> Text,
    }
}

diesel::table! {
    series_halls (series_id, public_key) {
        series_id -> Integer,
        public_key -> Text,
        hall_name -> Text,
    }
}

diesel::table! {
    series_reports (series_id, uuid) {
        series_id -> Integer,
        uuid -> Text,
        revision -> Integer,
        tournament_id -> Integer,
        public_key -> Text,
        digest -> Text,
        imported_at -> Timestamp,
        summary -> Text,
    }
}

diesel::table! {
    pending_reports (token) {
        token -> Text,
        series_id -> Integer,
        user_id -> Integer,
        created_at -> Timestamp,
        data -> Binary,
    }
}

diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(teams -> tournaments (tournament_id));
diesel::joinable!(seats -> tournaments (tournament_id));
diesel::joinable!(results -> tournaments (tournament_id));

diesel::allow_tables_to_appear_in_same_query!(
    users,
    sessions,
    tournaments,
    teams,
    seats,
    results,
    audit_log,
    pending_entries,
    login_throttle,
    pending_uploads,
    tafel_entry_modes,
    marathon_rules,
    round_clocks,
    tafel_lines,
    tafel_gongs,
    suspended_final_visas,
    single_registrations,
    prizes,
    categories,
    team_categories,
    persons,
    team_persons,
    table_entry,
    table_codes,
    table_access,
    table_reports,
    series,
    series_tournaments,
    series_wildcards,
    instance,
    tournament_uuids,
    series_halls,
    series_reports,
    differenzler_rules,
    pending_reports
);
