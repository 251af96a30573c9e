//! Throttling failed logins: slow an attacker down without letting a stranger lock out the
//! Turnierleitung.
//!
//! Failures are counted per client address, and per account *and* address: guessing at one
//! address never blocks the same account at another address (the Leitung at the office
//! computer), and guessing many accounts from one address is slowed by the address's own
//! counter. Past a number of free attempts every further failure blocks for a growing time
//! (30 s, 1 min, 2 min … up to 15 minutes). A successful login clears the counters of its
//! address; `jassturnier user unlock NAME` or a new password clears an account's.

use chrono::{Duration, NaiveDateTime};

/// What is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter {
    /// Every failure from one client address, whatever the username.
    Address,
    /// Failures for one existing account from one client address.
    AccountAtAddress,
    /// Wrong table codes from one client address (IPv6: its /64), whatever the team.
    CodeAddress,
    /// Wrong table codes for one team from one client address.
    CodeTeamAtAddress,
    /// Wrong table codes for one team from anywhere. Never blocks (a stranger could lock
    /// the team out); the office sees it and can revoke the code.
    CodeTeam,
    /// Writes from one team's phones (reports, Tafel lines), per window: see [`phone_write`].
    PhoneWrites,
}

impl Counter {
    /// Failures before the first block.
    pub fn free_attempts(self) -> u32 {
        match self {
            // Several clerks may share an address (NAT): more slack than for one account.
            Counter::Address => 19,
            Counter::AccountAtAddress => 4,
            // A team's phones share the hall's address space with everybody's typos.
            Counter::CodeAddress => 19,
            Counter::CodeTeamAtAddress => 4,
            Counter::CodeTeam | Counter::PhoneWrites => u32::MAX,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Counter::Address => "address",
            Counter::AccountAtAddress => "account",
            Counter::CodeAddress => "code_address",
            Counter::CodeTeamAtAddress => "code_team_address",
            Counter::CodeTeam => "code_team",
            Counter::PhoneWrites => "phone_writes",
        }
    }
}

/// The first block, doubled with every further failure.
pub const FIRST_BLOCK_SECONDS: i64 = 30;
/// The longest block after a failure.
pub const MAX_BLOCK_SECONDS: i64 = 15 * 60;
/// Counters without a failure for this long are forgotten (and purged).
pub const FORGET_AFTER_HOURS: i64 = 24;

/// How long to block after the `failures`-th failure (counted with this one).
pub fn block_after(counter: Counter, failures: u32) -> Option<Duration> {
    let over = failures.checked_sub(counter.free_attempts())?;
    if over == 0 {
        return None;
    }
    let seconds = FIRST_BLOCK_SECONDS
        .checked_shl(over.min(32) - 1)
        .map_or(MAX_BLOCK_SECONDS, |s| s.min(MAX_BLOCK_SECONDS));
    Some(Duration::seconds(seconds))
}

/// A stored counter as it stands now: old failures are forgotten.
pub fn current_failures(failures: u32, last_failure: NaiveDateTime, now: NaiveDateTime) -> u32 {
    if now - last_failure > Duration::hours(FORGET_AFTER_HOURS) {
        0
    } else {
        failures
    }
}

/// Writes a team's phones may make in one window. Play writes a Tafel line every few
/// minutes (a Spiel takes more than a minute and a half) and a correction now and then:
/// 30 in 10 minutes is several times that, and bounds what a phone can write.
pub const PHONE_WRITES: u32 = 30;
pub const PHONE_WINDOW_MINUTES: i64 = 10;

/// The window in which a team's phones may write [`PHONE_WRITES`] times: 10 minutes; the day
/// simulator, which compresses the day's time, compresses it alike (a hidden setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhoneWindow(pub Duration);

impl Default for PhoneWindow {
    fn default() -> Self {
        PhoneWindow(Duration::minutes(PHONE_WINDOW_MINUTES))
    }
}

/// A phone's write as the counter decides it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhoneWrite {
    /// Written; the window's count with this write and when the window began.
    Allowed { count: u32, since: NaiveDateTime },
    /// Refused until the window ends; `newly`: this write is the one that stopped the phone
    /// (the office is told once).
    Stopped { until: NaiveDateTime, newly: bool },
}

/// Counts one write of a team's phones: `stored` is the window's count, its start and a
/// stop if there is one.
pub fn phone_write(
    stored: Option<(u32, NaiveDateTime, Option<NaiveDateTime>)>,
    now: NaiveDateTime,
    PhoneWindow(window): PhoneWindow,
) -> PhoneWrite {
    if let Some((_, _, Some(until))) = stored
        && until > now
    {
        return PhoneWrite::Stopped {
            until,
            newly: false,
        };
    }
    let (count, since) = match stored {
        Some((count, since, _)) if now - since < window => (count, since),
        _ => (0, now),
    };
    if count >= PHONE_WRITES {
        return PhoneWrite::Stopped {
            until: since + window,
            newly: true,
        };
    }
    PhoneWrite::Allowed {
        count: count + 1,
        since,
    }
}

/// Failures of a team's code from anywhere from which the office is warned.
pub const CODE_ALARM: u32 = 10;

/// The address a counter is kept for: an IPv4 address as it is; an IPv6 address by its /64
/// network, since one device may use any address of its /64 (a new one per request).
pub fn address_group(address: &str) -> String {
    match address.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V6(v6)) if v6.to_ipv4_mapped().is_none() => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
        Ok(std::net::IpAddr::V6(v6)) => v6
            .to_ipv4_mapped()
            .map_or(address.into(), |v4| v4.to_string()),
        _ => address.to_string(),
    }
}

/// The key of an account at an address; usernames are checked before (≤ 64 characters).
pub fn account_at(username: &str, address: &str) -> String {
    format!("{username}@{address}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_phone_writes_thirty_times_in_ten_minutes_then_waits_for_the_window() {
        let t0 = chrono::NaiveDate::from_ymd_opt(2026, 12, 5)
            .unwrap()
            .and_hms_opt(14, 0, 0)
            .unwrap();
        let mut stored = None;
        for n in 1..=PHONE_WRITES {
            let at = t0 + Duration::seconds(i64::from(n));
            match phone_write(stored, at, PhoneWindow::default()) {
                PhoneWrite::Allowed { count, since } => {
                    assert_eq!((count, since), (n, t0 + Duration::seconds(1)));
                    stored = Some((count, since, None));
                }
                other => panic!("write {n}: {other:?}"),
            }
        }
        let until = t0 + Duration::seconds(1) + Duration::minutes(PHONE_WINDOW_MINUTES);
        let at = t0 + Duration::minutes(1);
        assert_eq!(
            phone_write(stored, at, PhoneWindow::default()),
            PhoneWrite::Stopped { until, newly: true }
        );
        let stopped = stored.map(|(c, s, _)| (c, s, Some(until)));
        assert_eq!(
            phone_write(stopped, at, PhoneWindow::default()),
            PhoneWrite::Stopped {
                until,
                newly: false
            }
        );
        // After the window, a new one.
        assert_eq!(
            phone_write(stopped, until, PhoneWindow::default()),
            PhoneWrite::Allowed {
                count: 1,
                since: until
            }
        );
    }

    #[test]
    fn free_attempts_then_growing_blocks() {
        let c = Counter::AccountAtAddress;
        for f in 1..=4 {
            assert_eq!(block_after(c, f), None);
        }
        assert_eq!(block_after(c, 5), Some(Duration::seconds(30)));
        assert_eq!(block_after(c, 6), Some(Duration::seconds(60)));
        assert_eq!(block_after(c, 9), Some(Duration::seconds(480)));
        assert_eq!(
            block_after(c, 10),
            Some(Duration::seconds(MAX_BLOCK_SECONDS))
        );
        assert_eq!(
            block_after(c, 4000),
            Some(Duration::seconds(MAX_BLOCK_SECONDS))
        );
        assert_eq!(block_after(Counter::Address, 19), None);
        assert_eq!(
            block_after(Counter::Address, 20),
            Some(Duration::seconds(30))
        );
    }

    #[test]
    fn codes_are_counted_per_network_and_the_team_counter_never_blocks() {
        assert_eq!(address_group("192.168.1.20"), "192.168.1.20");
        assert_eq!(
            address_group("2001:db8:1:2:aaaa::1"),
            address_group("2001:db8:1:2:bbbb::9")
        );
        assert_ne!(
            address_group("2001:db8:1:2::1"),
            address_group("2001:db8:1:3::1")
        );
        assert_eq!(address_group("::ffff:10.0.0.7"), "10.0.0.7");
        assert_eq!(block_after(Counter::CodeTeam, 1_000_000), None);
        assert_eq!(block_after(Counter::CodeTeamAtAddress, 4), None);
        assert!(block_after(Counter::CodeTeamAtAddress, 5).is_some());
    }

    #[test]
    fn old_failures_are_forgotten() {
        let day = chrono::NaiveDate::from_ymd_opt(2026, 11, 22).unwrap();
        let at = day.and_hms_opt(9, 0, 0).unwrap();
        assert_eq!(current_failures(7, at, at + Duration::hours(3)), 7);
        assert_eq!(current_failures(7, at, at + Duration::hours(25)), 0);
    }

    proptest! {
        #[test]
        fn blocks_never_shrink_and_stay_bounded(failures in 0u32..10_000) {
            for counter in [Counter::Address, Counter::AccountAtAddress] {
                let now = block_after(counter, failures).map_or(0, |d| d.num_seconds());
                let next = block_after(counter, failures + 1).map_or(0, |d| d.num_seconds());
                prop_assert!(next >= now);
                prop_assert!(next <= MAX_BLOCK_SECONDS);
            }
        }
    }
}
