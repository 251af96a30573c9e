//! The domain's ids and enums as column types, so that rows carry `TeamId`, `Mode`,
//! `TeamStatus` … instead of bare integers and text.
//!
//! Ids are integers. Enums are stored as their key text; text that is no known key is a
//! deserialization error (logged with table-independent context), never a silent default:
//! a corrupt row must not turn a disqualified team into an active one.

use crate::domain::category::RuleKind;
use crate::domain::draw::DrawMode;
use crate::domain::ids::{
    CategoryId, PersonId, ResultId, SeriesId, SingleId, TeamId, TournamentId, UserId,
};
use crate::domain::marathon::{Ruling, Side, Trump};
use crate::domain::mode::Mode;
use crate::domain::person::Geschlecht;
use crate::domain::role::Role;
use crate::domain::series::{PointsKind, QualificationKind, Unit};
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
    CategoryId => CategoryIdColumn,
    PersonId => PersonIdColumn,
    SeriesId => SeriesIdColumn,
);

/// A Passe or table number, a Startnummer, points, a count: an `INTEGER` column that
/// is never negative. The domain counts in `u32`; the databases have no unsigned
/// integer, so this type is the one border crossing. A negative value read back is an
/// error (a corrupt row is not silently clamped to 0), and a `u32` beyond `i32::MAX`
/// is refused before it is written (never wrapped to a negative number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, AsExpression, FromSqlRow)]
#[diesel(sql_type = Integer)]
pub struct Nat(i32);

/// A number the column cannot hold: negative, or above `i32::MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfRange(pub i128);

impl std::fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} does not fit a non-negative INTEGER column", self.0)
    }
}

impl std::error::Error for OutOfRange {}

impl From<OutOfRange> for diesel::result::Error {
    fn from(e: OutOfRange) -> Self {
        diesel::result::Error::SerializationError(Box::new(e))
    }
}

impl Nat {
    pub const ZERO: Nat = Nat(0);

    /// The value as the domain counts it.
    pub fn get(self) -> u32 {
        // Never negative (checked on the way in), so this is the value itself.
        self.0.unsigned_abs()
    }

    /// A domain number for the database; refused above `i32::MAX`.
    pub fn of(n: u32) -> Result<Nat, OutOfRange> {
        i32::try_from(n).map(Nat).map_err(|_| OutOfRange(n.into()))
    }

    /// A length or index for the database; refused above `i32::MAX`.
    pub fn of_usize(n: usize) -> Result<Nat, OutOfRange> {
        i32::try_from(n).map(Nat).map_err(|_| OutOfRange(n as i128))
    }

    /// A duration or other signed count for the database; refused when negative or
    /// above `i32::MAX`.
    pub fn of_i64(n: i64) -> Result<Nat, OutOfRange> {
        i32::try_from(n)
            .ok()
            .filter(|v| *v >= 0)
            .map(Nat)
            .ok_or(OutOfRange(n.into()))
    }
}

/// A `COUNT(…)` as a length: never negative, so a negative one is an error, not a wrap.
pub fn count_len(n: i64) -> Result<usize, OutOfRange> {
    usize::try_from(n).map_err(|_| OutOfRange(n.into()))
}

impl From<u16> for Nat {
    fn from(n: u16) -> Self {
        Nat(n.into())
    }
}

impl std::fmt::Display for Nat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl From<Nat> for i64 {
    fn from(n: Nat) -> Self {
        n.0.into()
    }
}

impl From<Nat> for u32 {
    fn from(n: Nat) -> Self {
        n.get()
    }
}

impl serde::Serialize for Nat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self.get())
    }
}

impl<DB: Backend> ToSql<Integer, DB> for Nat
where
    i32: ToSql<Integer, DB>,
{
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
        self.0.to_sql(out)
    }
}

impl<DB: Backend> FromSql<Integer, DB> for Nat
where
    i32: FromSql<Integer, DB>,
{
    fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
        nat_from_stored(i32::from_sql(bytes)?)
    }
}

fn nat_from_stored(value: i32) -> deserialize::Result<Nat> {
    if value < 0 {
        tracing::error!(
            value,
            "negative Zahl in der Datenbank, wo nur 0 oder mehr stehen kann: die Zeile wird nicht gelesen"
        );
        return Err(format!("negative number {value} in the database").into());
    }
    Ok(Nat(value))
}

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
    Geschlecht => GeschlechtColumn, "geschlecht", Geschlecht::key, Geschlecht::from_key;
    RuleKind => RuleKindColumn, "category rule", RuleKind::key, RuleKind::from_key;
    PointsKind => PointsKindColumn, "series points", PointsKind::key, PointsKind::from_key;
    Unit => UnitColumn, "series unit", Unit::key, Unit::from_key;
    QualificationKind => QualificationKindColumn, "series qualification",
        QualificationKind::key, QualificationKind::from_key;
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
        for g in Geschlecht::ALL {
            assert_eq!(from_stored::<Geschlecht>(g.key()).ok(), Some(g));
        }
        for k in RuleKind::ALL {
            assert_eq!(from_stored::<RuleKind>(k.key()).ok(), Some(k));
        }
        assert!(from_stored::<Geschlecht>("w").is_err());
        assert!(from_stored::<RuleKind>("").is_err());
        assert!(from_stored::<TeamStatus>("Aktiv").is_err());
        assert!(from_stored::<Mode>("schieber").is_err());
        assert!(from_stored::<DrawMode>("").is_err());
        assert!(from_stored::<Side>("c").is_err());
    }

    #[test]
    fn numbers_cross_the_border_unchanged_or_not_at_all() {
        for n in [0, 1, 9_999, 2_147_483_647] {
            assert_eq!(Nat::of(n).map(Nat::get), Ok(n));
        }
        assert_eq!(Nat::of(2_147_483_648), Err(OutOfRange(2_147_483_648)));
        assert_eq!(Nat::of(u32::MAX), Err(OutOfRange(u32::MAX.into())));
        assert_eq!(nat_from_stored(0).map(Nat::get).ok(), Some(0));
        assert_eq!(nat_from_stored(157).map(Nat::get).ok(), Some(157));
        assert_eq!(Nat::of_i64(-1), Err(OutOfRange(-1)));
        assert_eq!(Nat::of_i64(3_600).map(Nat::get), Ok(3_600));
        assert!(nat_from_stored(-1).is_err());
        assert!(nat_from_stored(i32::MIN).is_err());
    }
}
