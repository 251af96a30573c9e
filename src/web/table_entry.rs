//! Results from the table, the phones' side: the code form, the table page (report,
//! confirm, dispute). A phone is admitted by its team's code once; a cookie for this
//! tournament then carries an opaque token (its hash in the database, as for sessions).

use super::auth::client_address;
use super::ctx::Ctx;
use super::render::{page, page_with, see_other};
use super::state::{AppState, db};
use super::tafel::{LineView, line_views, striche_text};
use super::team_page::team_page_path;
use crate::app::Refusal;
use crate::app::table_entry::at_table::{AtTable, at_table};
use crate::app::table_entry::report::{Done, PhoneAsk, TafelAsk, act};
use crate::app::table_entry::{self as use_case, Admission};
use crate::db::models::{Nat, TableAccessRow};
use crate::domain::differenzler::TableSheet;
use crate::domain::form::FieldErrors;
use crate::domain::format;
use crate::domain::ids::TournamentId;
use crate::domain::marathon::Side;
use crate::domain::marathon::Trump;
use crate::domain::marathon::quick::SpielForm;
use crate::domain::score_kind::DIFFERENZ_FIELDS;
use crate::domain::table_report::{self, Ask, Opening, OwnFigures, ReportState};
use crate::web::error::AppError;
use actix_web::cookie::{Cookie, SameSite};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use subtle::ConstantTimeEq;

fn cookie_name(id: TournamentId) -> String {
    format!("jassturnier_tisch_{id}")
}

fn tisch_path(id: TournamentId, startnummer: u32) -> String {
    format!("{}/tisch", team_page_path(id.0, startnummer))
}

/// The phone's admission for this tournament, if its cookie holds one.
async fn admitted(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    id: TournamentId,
) -> Result<Option<(String, TableAccessRow)>, AppError> {
    let Some(token) = req.cookie(&cookie_name(id)).map(|c| c.value().to_string()) else {
        return Ok(None);
    };
    let lookup = token.clone();
    let access = db(state, move |conn| Ok(use_case::access(conn, id, &lookup)?)).await?;
    Ok(access.map(|a| (token, a)))
}

#[derive(Template)]
#[template(path = "table_code.html")]
struct CodePage {
    ctx: Ctx,
    tournament: String,
    startnummer: u32,
    action: String,
    error: Option<String>,
}

/// One line of the phone page: a side's name and its points.
pub struct SideLine {
    pub name: String,
    pub points: String,
    pub own: bool,
}

#[derive(Template)]
#[template(path = "table_phone.html")]
struct PhonePage {
    ctx: Ctx,
    id: TournamentId,
    tournament: String,
    version: i32,
    who: String,
    startnummer: u32,
    round: &'static str,
    /// What the page says about the table's state, in one sentence.
    headline: String,
    passe: u32,
    table: u32,
    sides: Vec<SideLine>,
    /// The reported figures (A, B) with who reported them, where a report is shown.
    reported: Vec<SideLine>,
    answer: Vec<SideLine>,
    note: String,
    /// Which forms the page offers.
    may_report: bool,
    may_answer: bool,
    seen: i32,
    total: String,
    csrf: String,
    points: String,
    /// A dispute's note as typed, shown again when the dispute was refused.
    typed_note: String,
    errors: FieldErrors,
    message: Option<String>,
    /// Differenzler: the Schreiber reports the table's four differences (places 1 to 4); the
    /// players as shown, with the reported or stored figures; the figures as typed.
    per_player: bool,
    places: Vec<SideLine>,
    reported_places: Vec<SideLine>,
    diffs: [String; 4],
    /// Jassmarathon: the Tafel at the table.
    tafel_mode: bool,
    lines: Vec<LineView>,
    striche: Vec<String>,
    may_write_tafel: bool,
    may_reopen: bool,
    form: SpielForm,
    trumps: [Trump; 6],
}

impl PhonePage {
    /// Differenzler: the figure of place `place` (0 to 3) as typed or reported.
    fn diff(&self, place: &usize) -> &str {
        self.diffs.get(*place).map_or("", String::as_str)
    }

    fn diff_error(&self, place: &usize) -> Option<&str> {
        DIFFERENZ_FIELDS
            .get(*place)
            .and_then(|field| self.errors.get(field))
    }
}

#[derive(Deserialize)]
struct CodeForm {
    #[serde(default)]
    code: String,
}

#[derive(Deserialize, Default)]
struct Shown {
    /// Which step just succeeded (a fixed word, never echoed text).
    ok: Option<String>,
}

async fn show(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(TournamentId, u32)>,
    query: web::Query<Shown>,
) -> Result<HttpResponse, AppError> {
    let (id, startnummer) = path.into_inner();
    match admitted(&state, &req, id).await? {
        Some((_, access)) => {
            let team = access.team_id;
            let at = db(&state, move |conn| Ok(at_table(conn, id, team)?)).await?;
            let pairs = at.tournament.mode.plays_in_pairs();
            let message = query
                .ok
                .as_deref()
                .and_then(|key| done_message(key, pairs))
                .map(str::to_string);
            if at.team.startnummer.get() != startnummer {
                // Admitted for another team: nothing of this one without its code (a phone
                // handed on, e.g. between partners, changes team by the other code).
                let note = format!(
                    "Dieses Telefon ist für Nr. {} angemeldet. Für Nr. {startnummer} bitte deren Tisch-Code eingeben.",
                    at.team.startnummer
                );
                return code_page(&state, id, startnummer, Some(note), StatusCode::OK).await;
            }
            page(&phone_page(
                at,
                &access,
                message,
                String::new(),
                FieldErrors::new(),
            ))
        }
        None => code_page(&state, id, startnummer, None, StatusCode::OK).await,
    }
}

async fn code_page(
    state: &web::Data<AppState>,
    id: TournamentId,
    startnummer: u32,
    error: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let name = db(state, move |conn| Ok(use_case::code_page_name(conn, id)?)).await?;
    page_with(
        &CodePage {
            ctx: Ctx::anonymous(),
            tournament: name.unwrap_or_else(|| "Resultate vom Tisch".into()),
            startnummer,
            action: format!("{}/code", tisch_path(id, startnummer)),
            error,
        },
        status,
    )
}

async fn give_code(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(TournamentId, u32)>,
    form: web::Form<CodeForm>,
) -> Result<HttpResponse, AppError> {
    let (id, startnummer) = path.into_inner();
    let address = client_address(&req);
    let typed = form.into_inner().code;
    let admission = db(&state, move |conn| {
        Ok(use_case::admit(conn, id, startnummer, &typed, &address))
    })
    .await?;
    let admission = match admission {
        Ok(admission) => admission,
        // What the code cannot open is said on the code page, not an error page.
        Err(Refusal::Invalid(message)) => {
            return code_page(
                &state,
                id,
                startnummer,
                Some(message),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
        Err(other) => return Err(other.into()),
    };
    match admission {
        Admission::Admitted(token) => {
            let secure = state
                .public_url
                .as_deref()
                .is_some_and(|u| u.trim().to_ascii_lowercase().starts_with("https://"));
            let cookie = Cookie::build(cookie_name(id), token)
                .path(format!("/tournaments/{id}/"))
                .http_only(true)
                .secure(secure)
                .same_site(SameSite::Strict)
                .max_age(actix_web::cookie::time::Duration::hours(
                    use_case::ACCESS_HOURS,
                ))
                .finish();
            Ok(HttpResponse::SeeOther()
                .cookie(cookie)
                .insert_header((
                    actix_web::http::header::LOCATION,
                    tisch_path(id, startnummer),
                ))
                .finish())
        }
        Admission::Refused => {
            code_page(
                &state,
                id,
                startnummer,
                Some("Dieser Code stimmt nicht. Bitte den Tisch-Code vom Standblatt eingeben.".into()),
                StatusCode::UNAUTHORIZED,
            )
            .await
        }
        Admission::Throttled(seconds) => {
            code_page(
                &state,
                id,
                startnummer,
                Some(format!(
                    "Zu viele falsche Codes von diesem Gerät. Bitte in {} nochmals versuchen oder das Turnierbüro fragen.",
                    wait_text(seconds)
                )),
                StatusCode::TOO_MANY_REQUESTS,
            )
            .await
        }
    }
}

fn wait_text(seconds: i64) -> String {
    if seconds > 90 {
        format!("{} Minuten", (seconds + 59) / 60)
    } else {
        format!("{seconds} Sekunden")
    }
}

/// The message after a step, where the headline does not already say it (it says what
/// the table's state is: "Gemeldet: wartet …", "Resultat bestätigt: es zählt.").
fn done_message(key: &str, pairs: bool) -> Option<&'static str> {
    match (key, pairs) {
        ("gemeldet", true) => Some("Ihre Meldung ist beim gegnerischen Team zur Bestätigung."),
        ("gemeldet", false) => {
            Some("Ihre Meldung ist bei den Mitspielern der anderen Tischhälfte zur Bestätigung.")
        }
        ("schon", _) => {
            Some("Dieses Spiel stand schon auf der Tafel (zweimal gesendet): es zählt einmal.")
        }
        _ => None,
    }
}

fn phone_page(
    at: AtTable,
    access: &TableAccessRow,
    message: Option<String>,
    points: String,
    errors: FieldErrors,
) -> PhonePage {
    let t = &at.tournament;
    let round = t.mode.round();
    let total = t.mode.table_total(t.spiele_per_passe.get()).unwrap_or(0);
    let who = format!(
        "{} {} {}",
        t.mode.entrant().one(),
        at.team.startnummer,
        crate::domain::team::display_name(
            at.team.name.as_deref(),
            &at.team.player1,
            &at.team.player2
        )
    );
    let mut view = PhonePage {
        ctx: Ctx::anonymous(),
        id: t.id,
        tournament: t.name.clone(),
        version: t.version,
        who,
        startnummer: at.team.startnummer.get(),
        round,
        headline: String::new(),
        passe: 0,
        table: 0,
        sides: Vec::new(),
        reported: Vec::new(),
        answer: Vec::new(),
        note: String::new(),
        may_report: false,
        may_answer: false,
        seen: 0,
        total: format::number(i64::from(total)),
        csrf: access.csrf_token.clone(),
        points,
        typed_note: String::new(),
        errors,
        message,
        per_player: t.mode.facts().score_kind.per_player(),
        places: Vec::new(),
        reported_places: Vec::new(),
        diffs: Default::default(),
        tafel_mode: t.mode.facts().score_kind.counts_striche(),
        lines: Vec::new(),
        striche: Vec::new(),
        may_write_tafel: false,
        may_reopen: false,
        form: SpielForm::default(),
        trumps: Trump::ALL,
    };
    if t.closed {
        view.headline = use_case::CLOSED_FOR_PHONES.into();
        return view;
    }
    let seat = match (at.opening, at.seat) {
        (Opening::Off, _) => {
            view.headline =
                "Resultate vom Tisch sind in diesem Turnier nicht eingeschaltet.".into();
            return view;
        }
        (Opening::Closed, _) => {
            view.headline =
                "Die Erfassung vom Tisch ist geschlossen. Das Resultat gibt der Schreiber beim Turnierbüro ab.".into();
            return view;
        }
        (Opening::Open(passe), None) => {
            view.headline = format!("Sie sitzen in {round} {passe} an keinem Tisch (spielfrei).");
            return view;
        }
        (Opening::Open(_), Some(seat)) => seat,
    };
    view.passe = seat.passe;
    view.table = seat.table;
    let line = |side: Side, points: Option<u32>| SideLine {
        name: seat.sides[match side {
            Side::A => 0,
            Side::B => 1,
        }]
        .clone(),
        points: points
            .map(|p| format::number(i64::from(p)))
            .unwrap_or_default(),
        own: side == seat.side,
    };
    let both = |a: Option<u32>, b: Option<u32>| vec![line(Side::A, a), line(Side::B, b)];
    view.sides = both(None, None);
    if let Some(shown) = &seat.tafel {
        view.lines = line_views(&shown.lines, &shown.tafel);
        view.sides = both(Some(shown.tafel.a.total()), Some(shown.tafel.b.total()));
        view.striche = vec![striche_text(&shown.tafel.a), striche_text(&shown.tafel.b)];
    }
    if let Some(score) = &seat.result {
        view.sides = both(Some(score.points_a), Some(score.points_b));
    }
    // Differenzler: four places instead of two sides.
    let own_name = |name: &str| name.starts_with(&format!("{} ", at.team.startnummer));
    let places = |figures: Option<[u32; 4]>| -> Vec<SideLine> {
        seat.places
            .iter()
            .enumerate()
            .map(|(i, name)| SideLine {
                name: format!("{}. {name}", i + 1),
                points: figures
                    .map(|f| format::number(i64::from(f[i])))
                    .unwrap_or_default(),
                own: own_name(name),
            })
            .collect()
    };
    if view.per_player {
        view.places = places(seat.result_places);
        let reported = seat
            .report
            .as_ref()
            .and_then(|r| TableSheet::parse(r.tafel.as_deref()))
            .map(|s| s.differenzen);
        if let Some(figures) = reported {
            view.reported_places = places(Some(figures));
            let typed = view.diffs.iter().all(String::is_empty);
            if typed
                && seat
                    .report
                    .as_ref()
                    .is_some_and(|r| r.reporter_id == at.team.id)
            {
                view.diffs = figures.map(|f| f.to_string());
            }
        }
    }
    let state = seat.report.as_ref().map(|r| r.state);
    if let Some(report) = &seat.report {
        let p = |v: Nat| Some(v.get());
        view.reported = both(p(report.points_a), p(report.points_b));
        if let (Some(a), Some(b)) = (report.answer_points_a, report.answer_points_b) {
            view.answer = both(p(a), p(b));
        }
        view.note = report.note.clone().unwrap_or_default();
        view.seen = report.version;
        // The reporter's own figure stands in the (folded) form to change it.
        if view.points.is_empty() && report.reporter_id == at.team.id {
            let own = match seat.side {
                Side::A => report.points_a,
                Side::B => report.points_b,
            };
            view.points = own.to_string();
        }
    }
    // What the phone may do is the domain's decision; the page only offers it.
    let may = |ask| table_report::decide(&seat.situation, ask).is_ok();
    let writes = may(Ask::Report);
    let closed_tafel = view.tafel_mode && state == Some(ReportState::Gemeldet);
    view.may_report = writes && !view.tafel_mode;
    view.may_write_tafel = writes && view.tafel_mode && !closed_tafel;
    view.may_reopen = writes && closed_tafel;
    view.may_answer = may(Ask::Confirm { seen: view.seen });
    view.headline = match (seat.result.is_some(), state) {
        _ if seat.situation.pauschale => {
            "An Ihrem Tisch gilt die Pauschale: es wird kein Resultat erfasst."
        }
        (true, Some(ReportState::Bestaetigt)) => "Resultat bestätigt: es zählt.",
        (true, Some(ReportState::Entschieden)) => "Resultat vom Turnierbüro entschieden.",
        (true, _) => "Resultat vom Turnierbüro erfasst.",
        // Differenzler: the other half of the table (places 3 and 4 for 1 and 2) answers.
        _ if view.may_answer && view.per_player => {
            "Ihre Mitspieler haben den Schätzzettel gemeldet: bitte prüfen und bestätigen oder widersprechen."
        }
        _ if view.may_answer => {
            "Die Gegner haben gemeldet: bitte prüfen und bestätigen oder widersprechen."
        }
        (false, None) if view.may_write_tafel => {
            "Die Tafel ist leer: der Schreiber trägt jedes Spiel hier ein."
        }
        (false, None) if view.may_report && view.per_player => {
            "Noch kein Resultat: der Schreiber gibt hier die vier Differenzen des Schätzzettels ein."
        }
        (false, None) if view.may_report => {
            "Noch kein Resultat: der Schreiber gibt hier die Punkte seines Teams ein."
        }
        (false, Some(ReportState::Laufend)) if writes => {
            "Tafel läuft: jedes Spiel eintragen, nach dem Gong abschliessen und melden."
        }
        (false, Some(ReportState::Laufend)) => {
            "Die Gegner führen die Tafel; nach dem Gong bestätigen Sie sie hier."
        }
        (false, Some(ReportState::Gemeldet)) if closed_tafel => {
            "Tafel gemeldet: wartet auf die Bestätigung der Gegner."
        }
        (false, Some(ReportState::Gemeldet)) if view.per_player => {
            "Gemeldet: wartet auf die Bestätigung eines Mitspielers der anderen Tischhälfte."
        }
        (false, Some(ReportState::Gemeldet)) => "Gemeldet: wartet auf die Bestätigung der Gegner.",
        (false, Some(ReportState::Widerspruch)) => "Widerspruch: das Turnierbüro entscheidet.",
        _ => "Das Turnierbüro erfasst diesen Tisch.",
    }
    .into();
    view
}

#[derive(Deserialize)]
struct PhoneForm {
    #[serde(rename = "_csrf", default)]
    csrf: String,
    #[serde(default)]
    points: String,
    /// Differenzler: the four places' differences.
    #[serde(default)]
    diff_1: String,
    #[serde(default)]
    diff_2: String,
    #[serde(default)]
    diff_3: String,
    #[serde(default)]
    diff_4: String,
    #[serde(default)]
    seen: String,
    #[serde(default)]
    note: String,
}

/// The three things a phone posts.
#[derive(Clone, Copy)]
enum Post {
    Report,
    Confirm,
    Dispute,
}

/// The report, confirmation or dispute of a phone (`action` of the route).
async fn post(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(TournamentId, u32, String)>,
    form: web::Form<PhoneForm>,
) -> Result<HttpResponse, AppError> {
    let (id, startnummer, action) = path.into_inner();
    let what = match action.as_str() {
        "melden" => Post::Report,
        "bestaetigen" => Post::Confirm,
        "widersprechen" => Post::Dispute,
        _ => return Err(AppError::not_found()),
    };
    let (token, access) = match phone_of(&state, &req, id, startnummer).await? {
        Ok(phone) => phone,
        Err(refused) => return Ok(refused),
    };
    let form = form.into_inner();
    check_csrf(&access, &form.csrf)?;
    let seen = || {
        form.seen
            .trim()
            .parse::<i32>()
            .map_err(|_| AppError::BadRequest("Ungültiges Formular.".into()))
    };
    let own = OwnFigures {
        points: form.points.clone(),
        diff_1: form.diff_1.clone(),
        diff_2: form.diff_2.clone(),
        diff_3: form.diff_3.clone(),
        diff_4: form.diff_4.clone(),
    };
    let ask = match what {
        Post::Report => PhoneAsk::Report(own),
        Post::Confirm => PhoneAsk::Confirm { seen: seen()? },
        Post::Dispute => PhoneAsk::Dispute {
            seen: seen()?,
            own,
            note: form.note.clone(),
        },
    };
    let address = client_address(&req);
    let window = state.phone_window;
    let acted = db(&state, move |conn| {
        Ok(act(conn, id, &token, &address, ask, window))
    })
    .await?;
    let ok = |done: &Done| match done {
        Done::Reported => "?ok=gemeldet",
        Done::Confirmed => "?ok=bestaetigt",
        Done::Disputed => "?ok=widerspruch",
        Done::Invalid(_) | Done::Stopped(_) | Done::Unchanged => "",
    };
    respond(
        &state,
        (id, startnummer),
        &access,
        acted,
        ok,
        Typed {
            points: form.points,
            note: form.note,
            spiel: None,
            diffs: [form.diff_1, form.diff_2, form.diff_3, form.diff_4],
        },
    )
    .await
}

/// The phone admitted for this tournament, or the code page that asks for its code.
async fn phone_of(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    id: TournamentId,
    startnummer: u32,
) -> Result<Result<(String, TableAccessRow), HttpResponse>, AppError> {
    match admitted(state, req, id).await? {
        Some(phone) => Ok(Ok(phone)),
        None => Ok(Err(code_page(
            state,
            id,
            startnummer,
            Some(NOT_ADMITTED.into()),
            StatusCode::FORBIDDEN,
        )
        .await?)),
    }
}

/// What a phone typed, shown again after a refusal.
struct Typed {
    points: String,
    note: String,
    spiel: Option<SpielForm>,
    /// Differenzler: the four figures as typed.
    diffs: [String; 4],
}

/// After a phone's step: to its page (with `ok`'s suffix), or its page again with what was
/// refused, as the table now stands, and what was typed.
async fn respond(
    state: &web::Data<AppState>,
    (id, startnummer): (TournamentId, u32),
    access: &TableAccessRow,
    acted: Result<Done, Refusal>,
    ok: impl Fn(&Done) -> &'static str,
    typed: Typed,
) -> Result<HttpResponse, AppError> {
    let (message, errors, status) = match acted {
        Ok(Done::Invalid(errors)) => (None, errors, StatusCode::UNPROCESSABLE_ENTITY),
        Ok(Done::Stopped(until)) => (
            Some(format!(
                "Zu viele Einträge von diesem Tisch: bis {} nimmt der Server nichts mehr an. Bitte beim Turnierbüro melden.",
                until.format("%H:%M")
            )),
            FieldErrors::new(),
            StatusCode::TOO_MANY_REQUESTS,
        ),
        Ok(done) => {
            return Ok(see_other(&format!(
                "{}{}",
                tisch_path(id, startnummer),
                ok(&done)
            )));
        }
        // What the table may not do is said on its page, with the page as it now stands.
        Err(Refusal::Invalid(m)) => (
            Some(m),
            FieldErrors::new(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        Err(Refusal::Conflict(m)) => (Some(m), FieldErrors::new(), StatusCode::CONFLICT),
        Err(other) => return Err(other.into()),
    };
    let team = access.team_id;
    let at = db(state, move |conn| Ok(at_table(conn, id, team)?)).await?;
    let mut page = phone_page(at, access, message, typed.points, errors);
    page.typed_note = typed.note;
    if typed.diffs.iter().any(|d| !d.is_empty()) {
        page.diffs = typed.diffs;
    }
    if let Some(spiel) = typed.spiel {
        page.form = spiel;
    }
    page_with(&page, status)
}

#[derive(Deserialize)]
struct TafelPhoneForm {
    #[serde(rename = "_csrf", default)]
    csrf: String,
    #[serde(default)]
    action: String,
    #[serde(default)]
    line: String,
    /// The line the page offered the Spiel as: a form sent twice writes it once.
    #[serde(default)]
    number: String,
    #[serde(flatten)]
    spiel: SpielForm,
}

/// Jassmarathon: a line added or deleted, the Tafel closed (Gong) or opened again.
async fn tafel(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(TournamentId, u32)>,
    form: web::Form<TafelPhoneForm>,
) -> Result<HttpResponse, AppError> {
    let (id, startnummer) = path.into_inner();
    let (token, access) = match phone_of(&state, &req, id, startnummer).await? {
        Ok(phone) => phone,
        Err(refused) => return Ok(refused),
    };
    let form = form.into_inner();
    check_csrf(&access, &form.csrf)?;
    let ask = match form.action.as_str() {
        "add" => TafelAsk::Add(form.spiel.clone(), form.number.trim().parse().ok()),
        "delete" => TafelAsk::Delete(
            form.line
                .trim()
                .parse()
                .map_err(|_| AppError::BadRequest("Welche Zeile?".into()))?,
        ),
        "gong" => TafelAsk::Gong(true),
        "ungong" => TafelAsk::Gong(false),
        _ => return Err(AppError::BadRequest("Unbekannte Aktion.".into())),
    };
    let address = client_address(&req);
    let window = state.phone_window;
    let acted = db(&state, move |conn| {
        Ok(act(
            conn,
            id,
            &token,
            &address,
            PhoneAsk::Tafel(ask),
            window,
        ))
    })
    .await?;
    respond(
        &state,
        (id, startnummer),
        &access,
        acted,
        |done| match done {
            Done::Unchanged => "?ok=schon#tafel",
            _ => "#tafel",
        },
        Typed {
            points: String::new(),
            note: String::new(),
            spiel: Some(form.spiel),
            diffs: Default::default(),
        },
    )
    .await
}

fn check_csrf(access: &TableAccessRow, presented: &str) -> Result<(), AppError> {
    let same: bool = access
        .csrf_token
        .as_bytes()
        .ct_eq(presented.as_bytes())
        .into();
    if same {
        Ok(())
    } else {
        Err(AppError::Forbidden(
            "Das Formular ist abgelaufen oder ungültig. Bitte die Seite neu laden und nochmals senden.".into(),
        ))
    }
}

const NOT_ADMITTED: &str =
    "Dieses Telefon ist nicht (mehr) angemeldet. Bitte den Tisch-Code vom Standblatt eingeben.";

pub fn routes(cfg: &mut web::ServiceConfig) {
    let base = "/tournaments/{id}/team/{startnummer}/tisch";
    cfg.route(base, web::get().to(show))
        .route(&format!("{base}/code"), web::post().to(give_code))
        .route(
            "/tournaments/{id}/team/{startnummer}/tisch/{action:melden|bestaetigen|widersprechen}",
            web::post().to(post),
        )
        .route(&format!("{base}/tafel"), web::post().to(tafel));
}
