//! What the Protokoll records: every kind of write as one typed event. An event is stored as
//! the two columns `entity` and `action` with the texts below, which are the texts rows have
//! always had, so old rows read as they are. A pair that is not known here (a row of a newer
//! version, or a text nobody writes any more) reads as `None`; the Protokoll then shows it as
//! stored rather than failing.

use super::clock::ClockAction;
use serde::{Deserialize, Serialize};

/// An enum of actions with their stored texts, both ways.
macro_rules! actions {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
        pub enum $name {
            $(#[serde(rename = $text)] $variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            pub fn parse(text: &str) -> Option<Self> {
                match text {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

actions!(
    /// A table's result.
    ResultAction {
        Enter = "enter",
        Correct = "correct",
        Visa = "visa",
        Delete = "delete",
    }
);

actions!(
    /// Blind double entry: the typings of a table before its result counts.
    PendingAction {
        EnterFirst = "enter_first",
        Contradiction = "contradiction",
        Confirm = "confirm",
        Resolve = "resolve",
    }
);

actions!(
    /// A team (or an Einzelschieber's player).
    TeamAction {
        Create = "create",
        Import = "import",
        Update = "update",
        Delete = "delete",
        FinalVisa = "final_visa",
        Disqualify = "disqualify",
        Withdraw = "withdraw",
        Reinstate = "reinstate",
        PartnerDrawn = "partner_drawn",
    }
);

actions!(
    /// A Standblatt changed because its opponent left or came back.
    StandblattAction {
        OpponentLeft = "gegner_ausgeschieden",
        OpponentBack = "gegner_wieder_aufgenommen",
    }
);

actions!(
    /// The draw: the whole plan, or one Passe.
    DrawAction {
        Draw = "draw",
        DrawPasse = "draw_passe",
    }
);

actions!(
    /// The tournament itself.
    TournamentAction {
        Create = "create",
        Update = "update",
        Close = "close",
        Reopen = "reopen",
        Visibility = "visibility",
        Import = "import",
        Prizes = "prizes",
        Absenden = "absenden",
        Categories = "categories",
        CategoryMembers = "category_members",
    }
);

actions!(
    /// A Jassmarathon Tafel in the office.
    TafelAction {
        AddLine = "add_line",
        CorrectLine = "correct_line",
        DeleteLine = "delete_line",
        Gong = "gong",
        EntryMode = "entry_mode",
        ReplaceSource = "replace_source",
    }
);

actions!(
    /// A result reported from the table.
    ReportAction {
        Report = "report",
        Change = "change",
        TafelLine = "tafel_line",
        TafelDelete = "tafel_delete",
        TafelGong = "tafel_gong",
        TafelReopen = "tafel_reopen",
        Confirm = "confirm",
        Dispute = "dispute",
        DecideReported = "decide_reported",
        DecideAnswer = "decide_answer",
        Supersede = "supersede",
    }
);

actions!(
    /// A team's code for results from the table.
    CodeAction {
        Admitted = "admitted",
        Refused = "refused",
        Revoke = "revoke",
        Stopped = "stopped",
    }
);

actions!(
    /// Results from the table switched on, opened for a Passe, closed or off.
    SwitchAction {
        On = "on",
        Off = "off",
        Open = "open",
        Close = "close",
    }
);

actions!(
    /// A single registration (partners drawn for singles).
    SingleAction {
        Create = "create",
        Delete = "delete",
        PartnerDraw = "partner_draw",
    }
);

actions!(
    /// A person of the register.
    PersonAction {
        Update = "update",
        Merge = "merge",
        Delete = "delete",
    }
);

actions!(
    /// A series of the Jass-Cup.
    SeriesAction {
        Create = "create",
        Update = "update",
        Tournaments = "tournaments",
        Hall = "hall",
        Report = "report",
    }
);

actions!(
    /// An account.
    UserAction {
        Create = "create",
        Update = "update",
        Password = "password",
    }
);

/// One write as the Protokoll records it (serialised as `{"entity": …, "action": …}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "entity", content = "action", rename_all = "snake_case")]
pub enum AuditEvent {
    Result(ResultAction),
    PendingEntry(PendingAction),
    Team(TeamAction),
    Standblatt(StandblattAction),
    Draw(DrawAction),
    Tournament(TournamentAction),
    #[serde(with = "clock_text")]
    Clock(ClockAction),
    Tafel(TafelAction),
    TableReport(ReportAction),
    TableCode(CodeAction),
    TableEntry(SwitchAction),
    Single(SingleAction),
    User(UserAction),
    Person(PersonAction),
    Series(SeriesAction),
}

/// The clock's actions as stored (they are the clock's own texts).
mod clock_text {
    use super::ClockAction;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(action: &ClockAction, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(action.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ClockAction, D::Error> {
        let text = String::deserialize(d)?;
        ClockAction::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown clock action {text}")))
    }
}

impl AuditEvent {
    /// The stored `entity` column.
    pub fn entity(self) -> &'static str {
        match self {
            AuditEvent::Result(_) => "result",
            AuditEvent::PendingEntry(_) => "pending_entry",
            AuditEvent::Team(_) => "team",
            AuditEvent::Standblatt(_) => "standblatt",
            AuditEvent::Draw(_) => "draw",
            AuditEvent::Tournament(_) => "tournament",
            AuditEvent::Clock(_) => "clock",
            AuditEvent::Tafel(_) => "tafel",
            AuditEvent::TableReport(_) => "table_report",
            AuditEvent::TableCode(_) => "table_code",
            AuditEvent::TableEntry(_) => "table_entry",
            AuditEvent::Single(_) => "single",
            AuditEvent::User(_) => "user",
            AuditEvent::Person(_) => "person",
            AuditEvent::Series(_) => "series",
        }
    }

    /// The stored `action` column.
    pub fn action(self) -> &'static str {
        match self {
            AuditEvent::Result(a) => a.as_str(),
            AuditEvent::PendingEntry(a) => a.as_str(),
            AuditEvent::Team(a) => a.as_str(),
            AuditEvent::Standblatt(a) => a.as_str(),
            AuditEvent::Draw(a) => a.as_str(),
            AuditEvent::Tournament(a) => a.as_str(),
            AuditEvent::Clock(a) => a.as_str(),
            AuditEvent::Tafel(a) => a.as_str(),
            AuditEvent::TableReport(a) => a.as_str(),
            AuditEvent::TableCode(a) => a.as_str(),
            AuditEvent::TableEntry(a) => a.as_str(),
            AuditEvent::Single(a) => a.as_str(),
            AuditEvent::User(a) => a.as_str(),
            AuditEvent::Person(a) => a.as_str(),
            AuditEvent::Series(a) => a.as_str(),
        }
    }

    /// The event of a stored row; None for a pair not known here (shown as stored).
    pub fn parse(entity: &str, action: &str) -> Option<Self> {
        Some(match entity {
            "result" => AuditEvent::Result(ResultAction::parse(action)?),
            "pending_entry" => AuditEvent::PendingEntry(PendingAction::parse(action)?),
            "team" => AuditEvent::Team(TeamAction::parse(action)?),
            "standblatt" => AuditEvent::Standblatt(StandblattAction::parse(action)?),
            "draw" => AuditEvent::Draw(DrawAction::parse(action)?),
            "tournament" => AuditEvent::Tournament(TournamentAction::parse(action)?),
            "clock" => AuditEvent::Clock(ClockAction::parse(action)?),
            "tafel" => AuditEvent::Tafel(TafelAction::parse(action)?),
            "table_report" => AuditEvent::TableReport(ReportAction::parse(action)?),
            "table_code" => AuditEvent::TableCode(CodeAction::parse(action)?),
            "table_entry" => AuditEvent::TableEntry(SwitchAction::parse(action)?),
            "single" => AuditEvent::Single(SingleAction::parse(action)?),
            "user" => AuditEvent::User(UserAction::parse(action)?),
            "person" => AuditEvent::Person(PersonAction::parse(action)?),
            "series" => AuditEvent::Series(SeriesAction::parse(action)?),
            _ => return None,
        })
    }

    /// Every event there is (for tests and the Protokoll's filter).
    pub fn all() -> Vec<AuditEvent> {
        let mut all = Vec::new();
        all.extend(ResultAction::ALL.iter().map(|&a| AuditEvent::Result(a)));
        all.extend(
            PendingAction::ALL
                .iter()
                .map(|&a| AuditEvent::PendingEntry(a)),
        );
        all.extend(TeamAction::ALL.iter().map(|&a| AuditEvent::Team(a)));
        all.extend(
            StandblattAction::ALL
                .iter()
                .map(|&a| AuditEvent::Standblatt(a)),
        );
        all.extend(DrawAction::ALL.iter().map(|&a| AuditEvent::Draw(a)));
        all.extend(
            TournamentAction::ALL
                .iter()
                .map(|&a| AuditEvent::Tournament(a)),
        );
        all.extend(ClockAction::ALL.iter().map(|&a| AuditEvent::Clock(a)));
        all.extend(TafelAction::ALL.iter().map(|&a| AuditEvent::Tafel(a)));
        all.extend(
            ReportAction::ALL
                .iter()
                .map(|&a| AuditEvent::TableReport(a)),
        );
        all.extend(CodeAction::ALL.iter().map(|&a| AuditEvent::TableCode(a)));
        all.extend(SwitchAction::ALL.iter().map(|&a| AuditEvent::TableEntry(a)));
        all.extend(SingleAction::ALL.iter().map(|&a| AuditEvent::Single(a)));
        all.extend(UserAction::ALL.iter().map(|&a| AuditEvent::User(a)));
        all.extend(PersonAction::ALL.iter().map(|&a| AuditEvent::Person(a)));
        all.extend(SeriesAction::ALL.iter().map(|&a| AuditEvent::Series(a)));
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_reads_back_from_its_columns_and_its_json() {
        let all = AuditEvent::all();
        assert!(all.len() > 50);
        for event in all {
            assert_eq!(
                AuditEvent::parse(event.entity(), event.action()),
                Some(event)
            );
            let json = serde_json::to_value(event).expect("serialises");
            assert_eq!(json["entity"], event.entity());
            assert_eq!(json["action"], event.action());
            assert_eq!(serde_json::from_value::<AuditEvent>(json).ok(), Some(event));
        }
    }

    #[test]
    fn rows_written_before_the_events_were_typed_still_read() {
        // Texts found in databases of earlier versions (every pair the writers used).
        for (entity, action) in [
            ("result", "enter"),
            ("result", "correct"),
            ("result", "visa"),
            ("pending_entry", "enter_first"),
            ("pending_entry", "contradiction"),
            ("team", "final_visa"),
            ("team", "partner_drawn"),
            ("standblatt", "gegner_ausgeschieden"),
            ("draw", "draw_passe"),
            ("tournament", "visibility"),
            ("clock", "pause"),
            ("tafel", "replace_source"),
            ("table_report", "decide_answer"),
            ("table_code", "stopped"),
            ("table_entry", "open"),
            ("single", "partner_draw"),
            ("user", "password"),
        ] {
            let event = AuditEvent::parse(entity, action).expect(action);
            assert_eq!((event.entity(), event.action()), (entity, action));
        }
        // Unknown texts are no event, not a default one.
        assert_eq!(AuditEvent::parse("result", "explode"), None);
        assert_eq!(AuditEvent::parse("backup", "enter"), None);
    }
}
