//! The authorization matrix: every state-changing route of the router × anonymous, every
//! role without the right, a missing and a foreign CSRF token. Each is refused and the
//! database is unchanged. The routes are read from the router's source, so a new route
//! without a line in [`expected`] fails this test.

use crate::helpers::*;
use regex_lite::Regex;
use reqwest::StatusCode;

/// Every POST route of `src/web`, as registered.
fn post_routes() -> Vec<String> {
    let route = Regex::new(r#"route\(\s*"([^"]+)",\s*web::post\(\)"#).unwrap();
    let resource =
        Regex::new(r#"(?s)resource\(\s*"([^"]+)"\s*\)[^;]*?\.route\(\s*web::post\(\)"#).unwrap();
    let mut found = Vec::new();
    let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for re in [&route, &resource] {
                    found.extend(re.captures_iter(&text).map(|c| c[1].to_string()));
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

#[derive(Clone, Copy, PartialEq)]
enum Body {
    Form,
    Upload,
    /// Open to anonymous visitors by design (login, first-run setup, a table code).
    Public,
    /// A phone admitted by its table code (tests/api/table_entry.rs): refused without one,
    /// whatever else the client holds.
    TableCode,
}

/// Per route: how it is posted and which roles may (l = Leitung, b = Büro, k = Kontrolleur).
fn expected(route: &str) -> Option<(Body, &'static str)> {
    use Body::*;
    Some(match route {
        "/login" | "/setup" => (Public, "lbk"),
        "/logout" => (Form, "lbk"),
        "/users" | "/users/{id}" => (Form, "l"),
        "/tournaments" | "/tournaments/{id}/edit" => (Form, "l"),
        "/tournaments/{id}/{action:close|reopen|publish|hide}" => (Form, "l"),
        "/tournaments/import" => (Upload, "l"),
        "/tournaments/{id}/teams"
        | "/tournaments/{id}/teams/{team}/edit"
        | "/tournaments/{id}/teams/{team}/delete"
        | "/tournaments/{id}/teams/import/confirm"
        | "/tournaments/{id}/teams/delete"
        | "/tournaments/{id}/singles"
        | "/tournaments/{id}/singles/{single}/delete"
        | "/tournaments/{id}/partner" => (Form, "lb"),
        "/tournaments/{id}/teams/import" => (Upload, "lb"),
        "/tournaments/{id}/draw" | "/tournaments/{id}/draw/next" => (Form, "lb"),
        "/tournaments/{id}/passen/{passe}/entry" | "/tournaments/{id}/passen/{passe}/quick" => {
            (Form, "lb")
        }
        "/tournaments/{id}/passen/{passe}/correct"
        | "/tournaments/{id}/passen/{passe}/tafel/{table}"
        | "/tournaments/{id}/passen/{passe}/schaetzzettel/{table}" => (Form, "lbk"),
        "/tournaments/{id}/results/import" => (Upload, "lb"),
        "/tournaments/{id}/passen/{passe}/tables/{table}/visa"
        | "/tournaments/{id}/passen/{passe}/visa-all"
        | "/tournaments/{id}/teams/{team}/final-visa" => (Form, "lk"),
        "/tournaments/{id}/teams/{team}/status" | "/tournaments/{id}/passen/{passe}/clock" => {
            (Form, "l")
        }
        "/tournaments/{id}/tisch" | "/tournaments/{id}/tisch/codes/{team}" => (Form, "l"),
        "/tournaments/{id}/preise" | "/tournaments/{id}/absenden" => (Form, "l"),
        "/tournaments/{id}/kategorien" | "/tournaments/{id}/kategorien/regeln" => (Form, "l"),
        "/serien" | "/serien/{id}/einstellungen" | "/serien/{id}/turniere" => (Form, "l"),
        "/serien/{id}/hallen" | "/halle/name" | "/serien/{id}/berichte/bestaetigen" => (Form, "l"),
        "/serien/{id}/berichte" => (Upload, "l"),
        "/pruefen" => (Public, ""),
        "/personen/{id}" | "/personen/{id}/zusammenfuehren" | "/personen/{id}/loeschen" => {
            (Form, "l")
        }
        "/tournaments/{id}/kategorien/mitglieder" => (Form, "lb"),
        "/tournaments/{id}/passen/{passe}/tables/{table}/entscheiden" => (Form, "lbk"),
        "/tournaments/{id}/team/{startnummer}/tisch/code" => (Public, "lbk"),
        "/tournaments/{id}/team/{startnummer}/tisch/{action:melden|bestaetigen|widersprechen}" => {
            (TableCode, "")
        }
        _ => return None,
    })
}

/// The paths a route stands for in the prepared tournament.
fn paths(route: &str, tournament: i32, team: i32, user: i32) -> Vec<String> {
    let route = route
        .replace("/users/{id}", &format!("/users/{user}"))
        .replace("{id}", &tournament.to_string())
        .replace("{team}", &team.to_string())
        .replace("{passe}", "1")
        .replace("{table}", "1")
        .replace("{startnummer}", "1")
        .replace("{single}", "1");
    match route.split_once("{action:") {
        Some((head, rest)) => {
            let (alternatives, tail) = rest.split_once('}').unwrap();
            alternatives
                .split('|')
                .map(|a| format!("{head}{a}{tail}"))
                .collect()
        }
        None => vec![route],
    }
}

/// A form that would be accepted from the right person: the refusal is about who sends it.
const FORM: [(&str, &str); 9] = [
    ("username", "neu"),
    ("role", "buero"),
    ("password", "12345678"),
    ("player1", "Anna"),
    ("player2", "Urs"),
    ("table", "1"),
    ("points_a", "900"),
    ("action", "start"),
    ("mode", "fest"),
];

async fn send(client: &Client, body: Body, path: &str, csrf: Option<&str>) -> reqwest::Response {
    match body {
        Body::Upload => {
            client
                .upload(path, b"nr;spieler1;spieler2\n".to_vec(), csrf)
                .await
        }
        _ => client.post_with_csrf(path, &FORM, csrf).await,
    }
}

#[tokio::test]
async fn every_state_changing_route_refuses_strangers_wrong_roles_and_forged_forms() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let tournament = create_tournament(&leitung, "4", "12").await;
    import_teams(&leitung, tournament, fixture("teams_semikolon_cp1252.csv")).await;
    leitung
        .post_ok(
            &format!("/tournaments/{tournament}/draw"),
            &[("mode", "fest"), ("seed", "3")],
        )
        .await;
    let data = app.data(tournament);
    let team = data.teams[0].id.0;
    let anonymous = app.client();
    let clients = [('l', &leitung), ('b', &buero), ('k', &kontrolle)];
    let routes = post_routes();
    assert!(
        routes.len() >= 25,
        "the router's routes were found: {routes:?}"
    );
    let before = app.dump();
    for route in routes {
        let (body, allowed) = expected(&route)
            .unwrap_or_else(|| panic!("{route}: a new route needs its line in expected()"));
        if body == Body::Public {
            continue;
        }
        if body == Body::TableCode {
            // No account opens a table's page: only a phone admitted by the team's code.
            for path in paths(&route, tournament, team, 1) {
                for client in [&anonymous, &leitung, &buero, &kontrolle] {
                    let r = send(client, Body::Form, &path, Some(&client.csrf)).await;
                    assert_eq!(r.status(), StatusCode::FORBIDDEN, "{path}");
                }
                assert_eq!(app.dump(), before, "{path} wrote something");
            }
            continue;
        }
        for path in paths(&route, tournament, team, 1) {
            let r = send(&anonymous, body, &path, Some(&leitung.csrf)).await;
            assert_eq!(r.status(), StatusCode::SEE_OTHER, "anonymous {path}");
            assert_eq!(location(&r), "/login", "anonymous {path}");
            for (role, client) in clients {
                if !allowed.contains(role) {
                    let r = send(client, body, &path, Some(&client.csrf)).await;
                    assert_eq!(r.status(), StatusCode::FORBIDDEN, "{role} {path}");
                }
            }
            let (_, permitted) = clients
                .iter()
                .find(|(role, _)| allowed.contains(*role))
                .unwrap();
            let r = send(permitted, body, &path, None).await;
            assert_eq!(r.status(), StatusCode::FORBIDDEN, "no csrf {path}");
            let foreign = clients
                .iter()
                .find(|(_, c)| c.csrf != permitted.csrf)
                .map(|(_, c)| c.csrf.clone())
                .unwrap();
            let r = send(permitted, body, &path, Some(&foreign)).await;
            assert_eq!(r.status(), StatusCode::FORBIDDEN, "foreign csrf {path}");
            assert_eq!(app.dump(), before, "{path} wrote something");
        }
    }
}

/// The permission is checked before the request's body is read: a Kontrolleur's upload to
/// the team import, bigger than any upload may be, is refused for his role (403), not read
/// up to the limit first (413).
#[tokio::test]
async fn a_user_without_the_permission_is_refused_before_the_body_is_read() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = create_tournament(&leitung, "4", "12").await;
    let path = format!("/tournaments/{id}/teams/import");
    let too_big = vec![b'x'; jassturnier::web::auth::MAX_UPLOAD_BYTES + 1024];
    let r = kontrolle
        .upload(&path, too_big.clone(), Some(&kontrolle.csrf))
        .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    // The Leitung may import: the same file is read and refused as too big.
    let r = leitung.upload(&path, too_big, Some(&leitung.csrf)).await;
    assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
    // A form post of the Leitung's tournament settings by the Kontrolleur: 403 too.
    let r = kontrolle
        .post(&format!("/tournaments/{id}/edit"), &[("name", "Umbenannt")])
        .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert_eq!(app.data(id).tournament.name, "Herbstturnier Zürich");
}
