//! Command line: `serve` (default), `user add|passwd|unlock`, `backup`, `copy`, `demo`.

use crate::config::Settings;
use crate::db::{self, users};
use crate::domain::role::Role;
use clap::{Parser, Subcommand};
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "jassturnier",
    version = crate::build_info::LONG_VERSION,
    about = "Turnierbüro für Jassturniere (Partnerschieber, Jassmarathon, Einzelschieber, Differenzler)"
)]
struct Cli {
    /// SQLite database file.
    #[arg(long, env = "DATABASE_URL", default_value = crate::desktop::default_database(), global = true)]
    database_url: String,
    /// The server's settings (before `serve`, or without a command): only the server takes
    /// them, so the other commands' help lists only their own flags.
    #[command(flatten)]
    serve: ServeArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The server's settings.
#[derive(clap::Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "JASSTURNIER_BIND", default_value = crate::desktop::default_bind())]
    bind: String,
    /// Address players reach the app at, printed as QR code on Standblätter.
    #[arg(long, env = "JASSTURNIER_PUBLIC_URL")]
    public_url: Option<String>,
    /// Folder for automatic backups (default: `backups/` next to the database).
    #[arg(long, env = "JASSTURNIER_BACKUP_DIR")]
    backup_dir: Option<std::path::PathBuf>,
    /// Minutes between automatic backups while a tournament is open (0: off).
    #[arg(long, env = "JASSTURNIER_BACKUP_MINUTES", default_value_t = 5)]
    backup_minutes: u64,
    /// Seconds between automatic backups, instead of minutes (for tests).
    #[arg(long, env = "JASSTURNIER_BACKUP_SECONDS", hide = true)]
    backup_seconds: Option<u64>,
    /// Seconds of the window in which a team's phones may write 30 times, instead of 10
    /// minutes (for the day simulator, which compresses time).
    #[arg(long, env = "JASSTURNIER_PHONE_WINDOW_SECONDS", hide = true)]
    phone_window_seconds: Option<i64>,
    /// HTTP worker threads. More than cores: only one at a time sends a live page to a fast
    /// reader, so the connection of the Büro rarely shares an event loop with one.
    #[arg(long, env = "JASSTURNIER_WORKERS", default_value_t = 16)]
    workers: usize,
    /// Nice value of the HTTP worker threads (0–19). Database work keeps normal priority,
    /// so result entry stays fast while hundreds of phones load the live Rangliste.
    #[arg(
        long,
        env = "JASSTURNIER_WORKER_NICE",
        default_value_t = crate::web::threads::WORKER_NICE,
        value_parser = clap::value_parser!(i32).range(0..=19)
    )]
    worker_nice: i32,
    /// The first-run setup needs the setup code from the console even from this machine
    /// (use it behind a reverse proxy, where every visitor seems to come from here).
    #[arg(long, env = "JASSTURNIER_SETUP_REQUIRES_CODE")]
    setup_requires_code: bool,
    /// PostgreSQL: do not listen for other instances' writes (behind PgBouncer in
    /// transaction mode, which does not pass LISTEN); live pages then follow by the poll.
    #[arg(long, env = "JASSTURNIER_NO_PG_LISTEN")]
    no_pg_listen: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the web application (the default; its settings may come before or after it).
    Serve(ServeArgs),
    /// Manage accounts.
    User {
        #[command(subcommand)]
        action: UserAction,
    },
    /// Write a consistent snapshot of the database to FILE (also while the server runs):
    /// an SQLite file, or on PostgreSQL every account and tournament as JSON.
    Backup { file: std::path::PathBuf },
    /// Copy every account and tournament into a new, empty database: an SQLite file to
    /// PostgreSQL and back, or a PostgreSQL backup (.json) into either.
    Copy {
        /// SQLite file, postgres:// URL, or a backup .json file.
        #[arg(long)]
        from: String,
        /// SQLite file or postgres:// URL of an empty database.
        #[arg(long)]
        to: String,
    },
    /// The Jass-Cup's series.
    Series {
        #[command(subcommand)]
        action: SeriesCommand,
    },
    /// Create a demo tournament with results (default: a Partnerschieber of 24 teams, 4 Passen à 12 Spiele).
    Demo {
        /// partnerschieber, einzelschieber (then --teams counts players) or jassmarathon.
        #[arg(long, default_value = "partnerschieber")]
        mode: String,
        #[arg(long, default_value_t = 24)]
        teams: u32,
        #[arg(long, default_value_t = 4)]
        passen: u32,
        #[arg(long, default_value_t = 12)]
        spiele: u32,
    },
}

#[derive(Subcommand)]
enum SeriesCommand {
    /// Take a sealed tournament report (….jassbericht.json) into a series of the Jass-Cup.
    Import {
        /// The series' number (in its address: /serien/N).
        #[arg(long)]
        series: i32,
        /// The Leitung account the Protokoll names (default: the first active one).
        #[arg(long = "as")]
        user: Option<String>,
        /// Accept the report's hall if the series does not know it yet (compare its
        /// fingerprint, printed by a first try without this flag, with the hall first).
        #[arg(long)]
        accept_hall: bool,
        file: std::path::PathBuf,
    },
}

#[derive(Subcommand)]
enum UserAction {
    /// Add an account; the password is read from standard input.
    Add {
        name: String,
        #[arg(long)]
        role: String,
    },
    /// Set a new password (read from standard input); also unlocks the account.
    Passwd { name: String },
    /// Clear the failed-login counters of an account at every address.
    Unlock { name: String },
}

fn read_password() -> Result<String, String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        print!("Passwort: ");
        let _ = std::io::stdout().flush();
    }
    let mut line = String::new();
    stdin
        .lock()
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let password = line.trim_end_matches(['\r', '\n']).to_string();
    users::check_password(&password)?;
    Ok(password)
}

fn series_command(database_url: &str, action: SeriesCommand) -> Result<String, String> {
    use crate::app::reports::{self, Taken};
    use crate::domain::ids::SeriesId;
    let SeriesCommand::Import {
        series,
        user,
        accept_hall,
        file,
    } = action;
    let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let pool = db::connect(database_url, 1)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let account = users::list(&mut conn)
        .map_err(|e| e.to_string())?
        .into_iter()
        .find(|u| {
            u.role == Role::Leitung && u.active && user.as_ref().is_none_or(|n| *n == u.username)
        })
        .ok_or("Kein aktives Konto der Turnierleitung (--as) in dieser Datenbank.")?;
    let actor = crate::domain::role::Actor {
        id: account.id,
        username: account.username,
        role: Role::Leitung,
    };
    let id = SeriesId(series);
    let take = |conn: &mut db::Conn| reports::take(conn, &actor, id, &bytes);
    let taken = take(&mut conn).map_err(|e| e.to_string())?;
    let taken = match taken {
        Taken::UnknownHall {
            hall,
            public_key,
            fingerprint,
        } => {
            if !accept_hall {
                return Err(format!(
                    "Die Serie kennt die Halle «{hall}» noch nicht (Fingerabdruck {fingerprint}): mit der Halle vergleichen und mit --accept-hall wiederholen. Nichts übernommen."
                ));
            }
            reports::accept_hall(&mut conn, &actor, id, &public_key, &hall)
                .map_err(|e| e.to_string())?;
            take(&mut conn).map_err(|e| e.to_string())?
        }
        other => other,
    };
    Ok(match taken {
        Taken::Added(t) => format!("Bericht übernommen: Turnier Nr. {t} zählt jetzt in der Serie."),
        Taken::Replaced { summary, .. } => summary,
        Taken::Unchanged => "Diesen Bericht hat die Serie schon: nichts geändert.".into(),
        Taken::UnknownHall { hall, .. } => format!("Die Halle «{hall}» ist nicht anerkannt."),
        Taken::Choose(preview) => {
            return Err(format!(
                "Im Register gibt es mehrere Personen für {}: bitte den Bericht im Browser übernehmen (Serie → Einstellungen) und dort wählen. Nichts übernommen.",
                preview
                    .ambiguous
                    .iter()
                    .map(|a| format!("«{}»", a.player))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    })
}

fn user_command(database_url: &str, action: UserAction) -> Result<String, String> {
    let pool = db::connect(database_url, 1)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    match action {
        UserAction::Add { name, role } => {
            let role: Role = role.parse()?;
            let name = users::check_username(&name)?.to_string();
            let hash = users::hash_password(&read_password()?)?;
            match users::create(&mut conn, None, &name, &hash, role, false) {
                Ok(_) => Ok(format!("Konto «{name}» ({}) angelegt.", role.label())),
                Err(users::CreateError::Taken) => Err(format!("Das Konto «{name}» gibt es schon.")),
                Err(users::CreateError::Db(e)) => Err(e.to_string()),
            }
        }
        UserAction::Passwd { name } => {
            let user = users::find_by_name(&mut conn, &name)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("Das Konto «{name}» gibt es nicht."))?;
            let hash = users::hash_password(&read_password()?)?;
            users::update(
                &mut conn,
                None,
                user.id,
                users::UserChange {
                    role: None,
                    active: None,
                    password_hash: Some(&hash),
                },
            )
            .map_err(|e| e.to_string())?;
            Ok(format!("Passwort von «{name}» geändert."))
        }
        UserAction::Unlock { name } => {
            users::find_by_name(&mut conn, &name)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("Das Konto «{name}» gibt es nicht."))?;
            let cleared = users::unlock(&mut conn, &name).map_err(|e| e.to_string())?;
            Ok(format!(
                "Konto «{name}» entsperrt ({cleared} gesperrte Adresse(n) freigegeben)."
            ))
        }
    }
}

/// The server's settings: those typed after `serve` where any were, else those before it
/// (or without a command).
fn serve_args(matches: &clap::ArgMatches, cli: Cli) -> (String, ServeArgs, Option<Command>) {
    let typed_after = matches.subcommand_matches("serve").is_some_and(|sub| {
        sub.ids().any(|id| {
            sub.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine)
                && id.as_str() != "database_url"
        })
    });
    match cli.command {
        Some(Command::Serve(after)) if typed_after => (cli.database_url, after, None),
        Some(Command::Serve(_)) | None => (cli.database_url, cli.serve, None),
        other => (cli.database_url, cli.serve, other),
    }
}

pub fn run() -> ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    tracing_subscriber::fmt()
        // A Windows console shows colour codes as text unless told otherwise.
        .with_ansi(!cfg!(windows))
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let (database_url, args, command) = serve_args(&matches, cli);
    let outcome = match command {
        None | Some(Command::Serve(_)) => serve(Settings {
            bind: args.bind,
            database_url: database_url.clone(),
            workers: args.workers.max(1),
            worker_nice: args.worker_nice,
            public_url: args.public_url,
            backup_dir: args.backup_dir,
            backup_interval: std::time::Duration::from_secs(
                args.backup_seconds.unwrap_or(args.backup_minutes * 60),
            ),
            setup_from_loopback: !args.setup_requires_code,
            live_poll: std::time::Duration::from_secs(1),
            pg_listen: !args.no_pg_listen,
            phone_window: args
                .phone_window_seconds
                .map(|s| crate::domain::throttle::PhoneWindow(chrono::Duration::seconds(s.max(1))))
                .unwrap_or_default(),
        }),
        Some(Command::Series { action }) => {
            series_command(&database_url, action).map(|m| println!("{m}"))
        }
        Some(Command::Backup { file }) => backup(&database_url, &file).map(|m| println!("{m}")),
        Some(Command::Copy { from, to }) => copy(&from, &to).map(|m| println!("{m}")),
        Some(Command::User { action }) => {
            user_command(&database_url, action).map(|m| println!("{m}"))
        }
        Some(Command::Demo {
            mode,
            teams,
            passen,
            spiele,
        }) => mode
            .parse()
            // "Bitte einen Modus wählen" is the form's word; here the command line's.
            .map_err(|_| format!("Unbekannter Modus «{mode}». {}", crate::demo::DEMO_MODES))
            .and_then(|mode| {
                crate::demo::create(
                    &database_url,
                    crate::demo::Size {
                        mode,
                        teams,
                        passen,
                        spiele,
                    },
                )
            })
            .map(|m| println!("{m}")),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("Fehler: {message}");
            ExitCode::FAILURE
        }
    }
}

fn serve(settings: Settings) -> Result<(), String> {
    actix_web::rt::System::new().block_on(async move {
        let app = crate::startup::build(&settings)?;
        let host = settings
            .bind
            .rsplit_once(':')
            .map(|(host, _)| host)
            .unwrap_or("127.0.0.1");
        // The browser on this machine: the loopback address when listening everywhere.
        let local_host = if host == "0.0.0.0" || host == "[::]" {
            "127.0.0.1"
        } else {
            host
        };
        let local = format!("http://{local_host}:{}", app.port);
        let listen: Option<std::net::SocketAddr> = format!("{host}:{}", app.port).parse().ok();
        let interfaces: Vec<std::net::IpAddr> = if_addrs::get_if_addrs()
            .map(|all| all.into_iter().map(|i| i.ip()).collect())
            .unwrap_or_default();
        let hall = listen
            .map(|l| crate::web::hall::hall_addresses(l, &interfaces))
            .unwrap_or_default();
        let shown = db::shown_url(&settings.database_url);
        // Full paths: a double-clicked exe's working directory says nothing to its user.
        let data = match db::is_postgres(&settings.database_url) {
            true => shown.clone(),
            false => std::path::absolute(db::sqlite_path(&settings.database_url))
                .map_or_else(|_| shown.clone(), |p| p.display().to_string()),
        };
        let backups =
            std::path::absolute(settings.backup_dir()).unwrap_or_else(|_| settings.backup_dir());
        for line in crate::desktop::start_lines(&data, &backups, &local, &hall) {
            println!("{line}");
        }
        tracing::info!("Jassturnier läuft auf {local} (Datenbank {shown})");
        crate::desktop::open_browser_if_double_clicked(&local);
        let handle = app.server.handle();
        actix_web::rt::spawn(async move {
            crate::desktop::window_closed().await;
            handle.stop(true).await;
        });
        app.server.await.map_err(|e| e.to_string())
    })
}

fn copy(from: &str, to: &str) -> Result<String, String> {
    let doc: db::transfer::DatabaseDoc = if from.ends_with(".json") {
        let bytes = std::fs::read(from).map_err(|e| format!("{from}: {e}"))?;
        serde_json::from_slice(&bytes).map_err(|e| format!("{from}: {e}"))?
    } else {
        // An SQLite source must exist: opening a missing file would create an empty one.
        if !db::is_postgres(from) && !std::path::Path::new(db::sqlite_path(from)).is_file() {
            return Err(format!("{from}: diese Datei gibt es nicht."));
        }
        let pool = db::connect(from, 1)?;
        let mut conn = pool.get().map_err(|e| e.to_string())?;
        db::transfer::dump_database(&mut conn).map_err(|e| e.to_string())?
    };
    let pool = db::connect(to, 1)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let tournaments = crate::app::copy::restore(&mut conn, &doc).map_err(|e| e.to_string())?;
    Ok(format!(
        "{} Konten und {tournaments} Turniere kopiert: {} → {}",
        doc.accounts.len(),
        db::shown_url(from),
        db::shown_url(to)
    ))
}

fn backup(database_url: &str, file: &std::path::Path) -> Result<String, String> {
    let pool = db::connect(database_url, 1)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    db::backup::snapshot(&mut conn, file)?;
    Ok(format!("Sicherung geschrieben: {}", file.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, FromArgMatches};

    fn resolved(args: &[&str]) -> (String, ServeArgs, bool) {
        let matches = Cli::command().try_get_matches_from(args).unwrap();
        let cli = Cli::from_arg_matches(&matches).unwrap();
        let (db, serve, command) = serve_args(&matches, cli);
        (db, serve, command.is_some())
    }

    /// The server's settings work before `serve`, after it, and without it; the other
    /// commands take the database and their own flags only.
    #[test]
    fn the_servers_settings_before_or_after_serve() {
        for args in [
            &["jassturnier", "--bind", "0.0.0.0:9090"][..],
            &["jassturnier", "--bind", "0.0.0.0:9090", "serve"],
            &["jassturnier", "serve", "--bind", "0.0.0.0:9090"],
        ] {
            let (_, serve, other) = resolved(args);
            assert_eq!(serve.bind, "0.0.0.0:9090", "{args:?}");
            assert!(!other);
        }
        let (db, _, other) = resolved(&["jassturnier", "--database-url", "x.sqlite3", "demo"]);
        assert_eq!(db, "x.sqlite3");
        assert!(other);
        let help = Cli::command()
            .find_subcommand_mut("demo")
            .unwrap()
            .render_long_help()
            .to_string();
        assert!(
            help.contains("--teams") && !help.contains("--bind"),
            "{help}"
        );
    }
}
