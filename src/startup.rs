//! Builds the application from its settings: tests boot the real app on port 0.

use crate::config::Settings;
use crate::db;
use crate::web::state::{AppState, SetupAccess};
use crate::web::{self};
use actix_web::dev::Server;
use actix_web::{App, HttpServer, middleware};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Largest form body accepted (CSV uploads have their own limit).
const MAX_FORM_BYTES: usize = 256 * 1024;
/// Scripts, styles and everything else only from the app itself; no inline scripts or
/// handlers, no framing (a visitor's page cannot overlay the office's buttons).
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";
/// How long an idle browser connection stays open.
const KEEP_ALIVE: std::time::Duration = std::time::Duration::from_secs(75);
/// Pooled SQLite connections, and as many threads at normal priority to use them.
const DB_CONNECTIONS: u32 = 8;

pub struct Application {
    pub server: Server,
    pub port: u16,
    pub pool: db::Pool,
    /// The one-time code for the first-run setup from another machine.
    pub setup_code: String,
    /// The live pages' hub (its render counter is read by tests).
    pub live: std::sync::Arc<crate::web::live::hub::LiveHub>,
    /// How many automatic backup checks have finished (with or without a new file): tests
    /// wait for checks, not for time.
    pub backup_checks: Arc<AtomicU64>,
}

/// The register follows the teams of a database from before it (or of an older version):
/// their players become persons, once, at start.
fn link_register(pool: &db::Pool) -> Result<(), String> {
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let added = db::persons::link_existing(&mut conn)
        .map_err(|e| format!("Register der Personen nicht nachgeführt: {e}"))?;
    if added > 0 {
        tracing::info!(added, "Register: Personen aus bestehenden Teams angelegt");
    }
    Ok(())
}

/// The first start makes this instance's signing key for tournament reports (Jass-Cup).
fn make_instance_key(pool: &db::Pool) -> Result<(), String> {
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let made = db::instance::ensure(&mut conn, rand::random::<[u8; 32]>)
        .map_err(|e| format!("Schlüssel der Instanz nicht angelegt: {e}"))?;
    if made {
        tracing::info!("Schlüssel für Turnierberichte angelegt");
    }
    Ok(())
}

pub fn build(settings: &Settings) -> Result<Application, String> {
    let pool = db::connect(&settings.database_url, DB_CONNECTIONS)?;
    link_register(&pool)?;
    make_instance_key(&pool)?;
    let listener =
        TcpListener::bind(&settings.bind).map_err(|e| format!("{}: {e}", settings.bind))?;
    let listen = listener.local_addr().map_err(|e| e.to_string())?;
    let port = listen.port();
    let live = std::sync::Arc::new(crate::web::live::hub::LiveHub::default());
    let state = actix_web::web::Data::new(AppState {
        pool: pool.clone(),
        public_url: settings.public_url.clone(),
        live: live.clone(),
        public_cache: Default::default(),
        db_threads: web::threads::Workers::start(DB_CONNECTIONS as usize)
            .map_err(|e| format!("database threads: {e}"))?,
        password_checks: web::threads::Workers::start_password_checks()
            .map_err(|e| format!("password thread: {e}"))?,
        setup: setup_access(&pool, settings, port)?,
        backup_dir: settings.backup_dir(),
        listen,
        phone_window: settings.phone_window,
    });
    // What an interrupted backup or download left (a crash, kill -9) goes at start.
    db::backup::remove_unfinished(&settings.backup_dir());
    let setup_code = state.setup.code.clone();
    crate::web::live::publish::spawn_poller(state.clone(), settings.live_poll);
    if db::is_postgres(&settings.database_url) && settings.pg_listen {
        crate::web::live::publish::spawn_listener(state.clone(), settings.database_url.clone());
    }
    let backup_checks = Arc::new(AtomicU64::new(0));
    if !settings.backup_interval.is_zero() {
        spawn_backups(
            pool.clone(),
            settings.backup_dir(),
            settings.backup_interval,
            backup_checks.clone(),
        );
    }
    let team_pages = actix_web::web::Data::new(crate::web::team_page::TeamPagesCache::default());
    let worker_nice = settings.worker_nice;
    let server = HttpServer::new(move || {
        // The factory runs on each worker thread as it starts.
        web::threads::lower_current_thread_priority(worker_nice);
        App::new()
            .app_data(state.clone())
            .app_data(team_pages.clone())
            .app_data(actix_web::web::PayloadConfig::new(MAX_FORM_BYTES))
            .app_data(actix_web::web::FormConfig::default().limit(MAX_FORM_BYTES))
            .wrap(middleware::from_fn(
                crate::web::live::publish::refresh_after_writes,
            ))
            .wrap(
                middleware::DefaultHeaders::new()
                    .add(("Content-Security-Policy", CONTENT_SECURITY_POLICY))
                    .add(("X-Content-Type-Options", "nosniff"))
                    .add(("X-Frame-Options", "DENY"))
                    .add(("Referrer-Policy", "same-origin"))
                    // Private by default: nothing the office sees (backups, exports, the
                    // Protokoll, codes) stays in a browser's or a proxy's cache. Responses
                    // meant to be cached (assets, the live page) say so themselves.
                    .add(("Cache-Control", "no-store")),
            )
            .wrap(middleware::from_fn(crate::web::flash::consume))
            .wrap(middleware::from_fn(crate::web::head::as_get))
            // Outermost: the line of a request has its final status and whole duration.
            .wrap(middleware::from_fn(crate::web::request_log::log_request))
            .configure(web::configure)
            .default_service(actix_web::web::to(web::not_found))
    })
    .workers(settings.workers)
    // Browsers keep idle connections for minutes; actix's 5 s default would make the Büro
    // open a new connection for nearly every result typed.
    .keep_alive(KEEP_ALIVE)
    .listen(listener)
    .map_err(|e| e.to_string())?
    .run();
    Ok(Application {
        server,
        port,
        pool,
        setup_code,
        live,
        backup_checks,
    })
}

/// The one-time setup code of this start; printed on the console while there is no account,
/// so that the office can set up the server from another machine (and a visitor cannot).
fn setup_access(pool: &db::Pool, settings: &Settings, port: u16) -> Result<SetupAccess, String> {
    let code = crate::web::auth::new_setup_code();
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    if db::users::count(&mut conn).map_err(|e| e.to_string())? == 0 {
        tracing::warn!(
            "Noch kein Konto: Ersteinrichtung unter http://127.0.0.1:{port}/setup auf diesem Rechner, \
             von einem anderen Gerät mit dem Einrichtungscode {code}"
        );
    }
    Ok(SetupAccess {
        code,
        from_loopback: settings.setup_from_loopback,
    })
}

/// Automatic backups: every interval, if anything changed and a tournament is open.
fn spawn_backups(
    pool: db::Pool,
    dir: std::path::PathBuf,
    every: std::time::Duration,
    checks: Arc<AtomicU64>,
) {
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(every);
        interval.tick().await;
        let mut last = None;
        loop {
            interval.tick().await;
            let (pool, dir) = (pool.clone(), dir.clone());
            let done = actix_web::web::block(move || {
                let mut conn = pool.get().map_err(|e| e.to_string())?;
                db::backup::automatic(&mut conn, &dir, last)
            })
            .await;
            match done {
                Ok(Ok((marker, written))) => {
                    last = Some(marker);
                    if let Some(path) = written {
                        tracing::info!(file = %path.display(), "automatische Sicherung geschrieben");
                    }
                }
                Ok(Err(e)) => tracing::error!(error = %e, "automatische Sicherung fehlgeschlagen"),
                Err(e) => tracing::error!(error = %e, "automatische Sicherung fehlgeschlagen"),
            }
            checks.fetch_add(1, Ordering::SeqCst);
        }
    });
}
