//! How the app starts for a club official rather than an administrator: the defaults of the
//! Windows download (data in `Dokumente\Jassturnier`, reachable from the hall), the German
//! lines the console window shows at start, the browser opened on a double-click, and a clean
//! stop when the window is closed.

use std::sync::LazyLock;

/// Where the database lives when none is given: on Windows in the user's documents (a
/// double-clicked exe starts in whatever folder Explorer chose), elsewhere in the working
/// directory as before.
pub fn default_database() -> &'static str {
    static PATH: LazyLock<String> = LazyLock::new(|| {
        #[cfg(windows)]
        if let Some(documents) = dirs::document_dir() {
            let folder = documents.join("Jassturnier");
            // Created here so that the first start finds it; if it cannot be, the start
            // fails with the database's own message naming the path.
            let _ = std::fs::create_dir_all(&folder);
            return folder
                .join(crate::config::DEFAULT_DATABASE)
                .to_string_lossy()
                .into_owned();
        }
        crate::config::DEFAULT_DATABASE.to_string()
    });
    &PATH
}

/// Where the server listens when nothing is given: on Windows on every interface (the
/// office computer in the hall serves the phones and the beamer), elsewhere on this machine
/// only, as an administrator expects.
pub fn default_bind() -> &'static str {
    if cfg!(windows) {
        "0.0.0.0:8080"
    } else {
        crate::config::DEFAULT_BIND
    }
}

/// What the console says at start: where the data is, where the browser and the phones find
/// the app, how to stop it.
pub fn start_lines(
    database: &str,
    backups: &std::path::Path,
    local: &str,
    hall: &[String],
) -> Vec<String> {
    let mut lines = vec![
        format!("Jassturnier {} läuft.", crate::build_info::LONG_VERSION),
        format!("Daten:        {database}"),
        format!("Sicherungen:  {}", backups.display()),
        format!("Im Browser:   {local}"),
    ];
    match hall {
        [] => lines.push(
            "Handys in der Halle erreichen diesen Server nicht (er hört nur auf diesen Computer)."
                .into(),
        ),
        addresses => lines.push(format!("Für die Halle: {}", addresses.join(", "))),
    }
    lines.push("Beenden: Ctrl+C drücken oder dieses Fenster schliessen.".into());
    lines
}

/// Opens the app in the default browser when the exe was double-clicked (started without
/// arguments) on Windows; a start from a command line opens nothing.
pub fn open_browser_if_double_clicked(url: &str) {
    if cfg!(windows) && std::env::args_os().len() == 1 {
        // `start` is a command of cmd.exe; the empty title keeps a quoted URL from being
        // taken for one. A failure only means the user opens the address himself.
        let _ = std::process::Command::new("cmd")
            .args(["/C", "start", "", url])
            .spawn();
    }
}

/// Resolves when the console window is closed (Windows): the server then stops as after
/// Ctrl+C, finishing the requests under way. Elsewhere never (signals are actix's).
pub async fn window_closed() {
    #[cfg(windows)]
    {
        if let Ok(mut close) = tokio::signal::windows::ctrl_close() {
            close.recv().await;
            return;
        }
    }
    std::future::pending::<()>().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_console_says_where_the_data_is_and_how_to_stop() {
        let lines = start_lines(
            "C:\\Users\\anna\\Documents\\Jassturnier\\jassturnier.sqlite3",
            std::path::Path::new("backups"),
            "http://127.0.0.1:8080",
            &["http://192.168.1.20:8080".to_string()],
        );
        let text = lines.join("\n");
        assert!(
            text.contains("Daten:        C:\\Users\\anna\\Documents\\Jassturnier"),
            "{text}"
        );
        assert!(
            text.contains("Für die Halle: http://192.168.1.20:8080"),
            "{text}"
        );
        assert!(text.contains("Beenden: Ctrl+C"), "{text}");
        let alone = start_lines("x", std::path::Path::new("b"), "http://127.0.0.1:8080", &[]);
        assert!(alone.join("\n").contains("erreichen diesen Server nicht"));
    }

    #[test]
    fn away_from_windows_the_defaults_are_the_documented_ones() {
        if !cfg!(windows) {
            assert_eq!(default_database(), "jassturnier.sqlite3");
            assert_eq!(default_bind(), "127.0.0.1:8080");
        }
    }
}
