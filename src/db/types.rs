//! The domain's ids and enums as column types, so that rows carry `TeamId`, `Mode`,
//! `TeamStatus` … instead of bare integers and text.
//!
//! Ids are integers. Enums are stored as their key text; text that is no known key is a
//! deserialization error (logged with table-independent context), never a silent default:
//! a corrupt row must not turn a disqualified team into an active one.

use crate::domain::draw::DrawMode;
use crate::domain::ids::{ResultId, SingleId, TeamId, TournamentId, UserId};
use crate::domain::marathon::{Ruling, Side, Trump};
use crate::domain::mode::Mode;
use crate::domain::role::Role;
use crate::domain::sitz::Sitz;
use crate::domain::table_report::ReportState;
use crate::domain::team::TeamStatus;
use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::expression::AsExpression;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::{Integer, Text};

macro_rules! integer_id {
    ($($id:ident => $proxy:ident),* $(,)?) => {$(
        // Diesel's own derives, applied to the domain type from here: the domain stays free
        // of database code.
        #[derive(AsExpression, FromSqlRow)]
        #[diesel(foreign_derive, sql_type = Integer)]
        #[allow(dead_code)]
        struct $proxy($id);

        impl<DB: Backend> ToSql<Integer, DB> for $id
        where
            i32: ToSql<Integer, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                self.0.to_sql(out)
            }
        }

        impl<DB: Backend> FromSql<Integer, DB> for $id
        where
            i32: FromSql<Integer, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                i32::from_sql(bytes).map($id)
            }
        }
    )*};
}

integer_id!(
    TournamentId => TournamentIdColumn,
    TeamId => TeamIdColumn,
    UserId => UserIdColumn,
    ResultId => ResultIdColumn,
    SingleId => SingleIdColumn,
);

/// An enum stored as text: its key, and the way back.
trait StoredText: Sized + 'static {
    /// What the column holds, for the error message.
    const WHAT: &'static str;
    fn key(&self) -> &'static str;
    fn from_key(key: &str) -> Option<Self>;
}

macro_rules! text_enum {
    ($($ty:ident => $proxy:ident, $what:literal, $key:expr, $from:expr);* $(;)?) => {$(
        #[derive(AsExpression, FromSqlRow)]
        #[diesel(foreign_derive, sql_type = Text)]
        #[allow(dead_code)]
        struct $proxy($ty);

        impl StoredText for $ty {
            const WHAT: &'static str = $what;
            fn key(&self) -> &'static str {
                ($key)(*self)
            }
            fn from_key(key: &str) -> Option<Self> {
                ($from)(key)
            }
        }

        impl<DB: Backend> ToSql<Text, DB> for $ty
        where
            str: ToSql<Text, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                self.key().to_sql(out)
            }
        }

        impl<DB: Backend> FromSql<Text, DB> for $ty
        where
            String: FromSql<Text, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                let text = String::from_sql(bytes)?;
                from_stored::<$ty>(&text)
            }
        }
    )*};
}

fn from_stored<T: StoredText>(text: &str) -> deserialize::Result<T> {
    T::from_key(text).ok_or_else(|| {
        tracing::error!(
            column = T::WHAT,
            value = text,
            "unbekannter Wert in der Datenbank: die Zeile wird nicht gelesen"
        );
        format!("unknown {} «{text}» in the database", T::WHAT).into()
    })
}

text_enum!(
    Mode => ModeColumn, "mode", Mode::key, Mode::from_key;
    DrawMode => DrawModeColumn, "draw mode", DrawMode::as_str, DrawMode::parse;
    TeamStatus => TeamStatusColumn, "team status", TeamStatus::as_str,
        |k: &str| TeamStatus::ALL.into_iter().find(|s| s.as_str() == k);
    Role => RoleColumn, "role", Role::as_str, Role::from_key;
    Trump => TrumpColumn, "trump", Trump::as_str,
        |k: &str| Trump::ALL.into_iter().find(|t| t.as_str() == k);
    Side => SideColumn, "side", Side::as_str,
        |k: &str| [Side::A, Side::B].into_iter().find(|s| s.as_str() == k);
    Ruling => RulingColumn, "ruling", Ruling::key, Ruling::from_key;
    Sitz => SitzColumn, "seat", Sitz::key, Sitz::from_key;
    ReportState => ReportStateColumn, "table report state", ReportState::key, ReportState::from_key;
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reads_back_and_unknown_text_is_an_error() {
        for mode in Mode::ALL {
            assert_eq!(from_stored::<Mode>(mode.key()).ok(), Some(mode));
        }
        for status in TeamStatus::ALL {
            assert_eq!(
                from_stored::<TeamStatus>(status.as_str()).ok(),
                Some(status)
            );
        }
        for role in Role::ALL {
            assert_eq!(from_stored::<Role>(role.as_str()).ok(), Some(role));
        }
        for trump in Trump::ALL {
            assert_eq!(from_stored::<Trump>(trump.as_str()).ok(), Some(trump));
        }
        assert!(from_stored::<TeamStatus>("Aktiv").is_err());
        assert!(from_stored::<Mode>("schieber").is_err());
        assert!(from_stored::<DrawMode>("").is_err());
        assert!(from_stored::<Side>("c").is_err());
    }
}
