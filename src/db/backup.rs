//! Consistent snapshots of the whole database and the automatic backups while a tournament
//! is open. SQLite: `VACUUM INTO` (never a copy of a file being written), a database file
//! that the app opens as it is. PostgreSQL: the database-neutral document of every account
//! and tournament (JSON, read in one snapshot), which `jassturnier copy` restores; for the
//! server itself operators use `pg_dump` (README).

use super::Conn;
use super::schema::{audit_log, tournaments};
use diesel::prelude::*;
use std::path::{Path, PathBuf};

/// How many automatic backups are kept.
pub const KEEP: usize = 50;
const PREFIX: &str = "jassturnier-";
const SUFFIX: &str = ".sqlite3";
const JSON_SUFFIX: &str = ".json";

/// What a backup of this database is: its file ending and its media type.
pub fn kind(conn: &Conn) -> (&'static str, &'static str) {
    match conn {
        Conn::Sqlite(_) => (SUFFIX, "application/vnd.sqlite3"),
        Conn::Postgres(_) => (JSON_SUFFIX, "application/json"),
    }
}

/// Marks a backup being written: such a file never looks like a backup.
const UNFINISHED: &str = ".unfertig-";

/// Writes a consistent copy of the database to `path` (which must not exist yet): first
/// under a temporary name, readable only by the server's user, then checked (integrity and
/// the app's tables), then renamed in one step. A backup that fails or is interrupted (a
/// crash, `kill -9`) leaves nothing under the backup's name.
pub fn snapshot(conn: &mut Conn, path: &Path) -> Result<(), String> {
    if path.exists() {
        return Err(format!("{} existiert bereits.", path.display()));
    }
    let mut name = path
        .file_name()
        .ok_or("Kein Dateiname angegeben.")?
        .to_os_string();
    name.push(format!("{UNFINISHED}{}", super::users::random_token()));
    let temporary = path.with_file_name(name);
    let written = match conn {
        Conn::Sqlite(_) => write_checked(conn, &temporary),
        Conn::Postgres(_) => write_document(conn, &temporary),
    }
    .and_then(|()| std::fs::rename(&temporary, path).map_err(|e| e.to_string()));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

fn write_checked(conn: &mut Conn, temporary: &Path) -> Result<(), String> {
    private_empty_file(temporary)?;
    let target = temporary
        .to_str()
        .ok_or("Der Pfad ist kein gültiger Text.")?
        .replace('\'', "''");
    // VACUUM INTO writes into an empty file and keeps its permissions.
    diesel::sql_query(format!("VACUUM INTO '{target}'"))
        .execute(conn)
        .map_err(|e| e.to_string())?;
    super::check_database_file(temporary)?;
    std::fs::File::open(temporary)
        .and_then(|f| f.sync_all())
        .map_err(|e| e.to_string())
}

/// The whole database as one document, written and read back before it counts.
fn write_document(conn: &mut Conn, temporary: &Path) -> Result<(), String> {
    use std::io::Write;
    private_empty_file(temporary)?;
    let doc = super::transfer::dump_database(conn).map_err(|e| e.to_string())?;
    let bytes = serde_json::to_vec(&doc).map_err(|e| e.to_string())?;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .open(temporary)
        .map_err(|e| e.to_string())?;
    file.write_all(&bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| e.to_string())?;
    let back: super::transfer::DatabaseDoc =
        serde_json::from_slice(&std::fs::read(temporary).map_err(|e| e.to_string())?)
            .map_err(|e| format!("{}: {e}", temporary.display()))?;
    if back != doc {
        return Err(format!(
            "{}: nicht vollständig geschrieben.",
            temporary.display()
        ));
    }
    Ok(())
}

/// An empty file only the server's user may read: a backup holds every result and account.
fn private_empty_file(path: &Path) -> Result<(), String> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
        .open(path)
        .map(drop)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Removes what interrupted backups left in `dir`.
pub fn remove_unfinished(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if name.to_string_lossy().contains(UNFINISHED) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// A snapshot for the download, opened for reading: written into `dir` (the backup
/// directory) under a name marked unfinished, so that whatever a crash leaves there is
/// removed like an interrupted backup ([`remove_unfinished`]); the name is removed at once
/// where the system allows it (the open file stays readable), else at the next cleanup.
pub fn snapshot_file(conn: &mut Conn, dir: &Path) -> Result<std::fs::File, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!(
        "{PREFIX}download{UNFINISHED}{}{}",
        super::users::random_token(),
        kind(conn).0
    ));
    snapshot(conn, &path)?;
    let file = std::fs::File::open(&path).map_err(|e| e.to_string());
    let _ = std::fs::remove_file(&path);
    file
}

/// Changes whenever anything is written: (sum of tournament versions, newest audit entry).
pub fn change_marker(conn: &mut Conn) -> QueryResult<(i64, i32)> {
    let versions: Vec<i32> = tournaments::table.select(tournaments::version).load(conn)?;
    let newest: Option<i32> = audit_log::table
        .select(diesel::dsl::max(audit_log::id))
        .first(conn)?;
    Ok((
        versions.iter().map(|v| i64::from(*v)).sum(),
        newest.unwrap_or(0),
    ))
}

pub fn any_open(conn: &mut Conn) -> QueryResult<bool> {
    Ok(tournaments::table
        .filter(tournaments::closed.eq(false))
        .count()
        .get_result::<i64>(conn)?
        > 0)
}

pub fn file_name(at: chrono::NaiveDateTime, suffix: &str) -> String {
    format!("{PREFIX}{}{suffix}", at.format("%Y%m%d-%H%M%S"))
}

/// The automatic backups in `dir`, oldest first.
pub fn list(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                        n.starts_with(PREFIX) && (n.ends_with(SUFFIX) || n.ends_with(JSON_SUFFIX))
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort_by_key(|path| written(path));
    files
}

/// When a backup was written, from its name: the second, then the number that a further
/// backup of the same second got ("-1", "-2"; none for the first). By name alone "-1" would
/// come before ".sqlite3", the newer before the older.
fn written(path: &Path) -> (String, u32) {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let stem = name
        .trim_start_matches(PREFIX)
        .trim_end_matches(SUFFIX)
        .trim_end_matches(JSON_SUFFIX);
    // "20261122-100000": the length of `file_name`'s time stamp.
    let (second, rest) = stem.get(..15).zip(stem.get(15..)).unwrap_or((stem, ""));
    let number = rest
        .strip_prefix('-')
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    (second.to_string(), number)
}

/// Deletes the oldest automatic backups beyond `keep`.
pub fn prune(dir: &Path, keep: usize) -> std::io::Result<usize> {
    let files = list(dir);
    let excess = files.len().saturating_sub(keep);
    for file in &files[..excess] {
        std::fs::remove_file(file)?;
    }
    Ok(excess)
}

/// One automatic backup if something changed since `last` and a tournament is open.
/// Returns the new marker and the file written.
pub fn automatic(
    conn: &mut Conn,
    dir: &Path,
    last: Option<(i64, i32)>,
) -> Result<((i64, i32), Option<PathBuf>), String> {
    let marker = change_marker(conn).map_err(|e| e.to_string())?;
    if last == Some(marker) || !any_open(conn).map_err(|e| e.to_string())? {
        return Ok((marker, None));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    remove_unfinished(dir);
    let suffix = kind(conn).0;
    let mut path = dir.join(file_name(super::now(), suffix));
    let mut n = 1;
    while path.exists() {
        path = dir.join(format!(
            "{PREFIX}{}-{n}{suffix}",
            super::now().format("%Y%m%d-%H%M%S")
        ));
        n += 1;
    }
    snapshot(conn, &path)?;
    prune(dir, KEEP).map_err(|e| e.to_string())?;
    Ok((marker, Some(path)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_is_private_checked_and_never_half_there() {
        let dir = tempfile::tempdir().unwrap();
        let pool =
            super::super::connect(dir.path().join("db.sqlite3").to_str().unwrap(), 1).unwrap();
        let mut conn = pool.get().unwrap();
        let backups = dir.path().join("backups");
        std::fs::create_dir(&backups).unwrap();
        let path = backups.join(file_name(super::super::now(), SUFFIX));
        snapshot(&mut conn, &path).unwrap();
        super::super::check_database_file(&path).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert!(
            snapshot(&mut conn, &path).is_err(),
            "never over an existing file"
        );
        // A snapshot that cannot be written leaves nothing behind.
        let nowhere = backups.join("fehlt").join("x.sqlite3");
        assert!(snapshot(&mut conn, &nowhere).is_err());
        // What an interrupted backup leaves is no backup, and is cleaned up.
        std::fs::write(
            backups.join(format!("jassturnier-1{SUFFIX}{UNFINISHED}abc")),
            b"",
        )
        .unwrap();
        assert_eq!(list(&backups), vec![path.clone()]);
        remove_unfinished(&backups);
        assert_eq!(std::fs::read_dir(&backups).unwrap().count(), 1);
    }

    #[test]
    fn a_second_backup_within_the_same_second_is_the_newer() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            "20261122-100000-2",
            "20261122-100000",
            "20261122-095959",
            "20261122-100000-1",
        ];
        for name in names {
            std::fs::write(dir.path().join(format!("{PREFIX}{name}{SUFFIX}")), b"x").unwrap();
        }
        let listed: Vec<String> = list(dir.path())
            .iter()
            .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
            .collect();
        let expected: Vec<String> = [
            "20261122-095959",
            "20261122-100000",
            "20261122-100000-1",
            "20261122-100000-2",
        ]
        .iter()
        .map(|name| format!("{PREFIX}{name}{SUFFIX}"))
        .collect();
        assert_eq!(listed, expected);
    }

    #[test]
    fn prune_keeps_the_newest() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..55 {
            std::fs::write(
                dir.path()
                    .join(format!("{PREFIX}20261122-1000{i:02}{SUFFIX}")),
                b"x",
            )
            .unwrap();
        }
        std::fs::write(dir.path().join("notiz.txt"), b"bleibt").unwrap();
        assert_eq!(prune(dir.path(), KEEP).unwrap(), 5);
        let left = list(dir.path());
        assert_eq!(left.len(), 50);
        assert!(left[0].ends_with(format!("{PREFIX}20261122-100005{SUFFIX}")));
        assert!(dir.path().join("notiz.txt").exists());
    }
}
