//! Account management by the Turnierleitung.

use super::auth::flash_redirect;
use super::auth::{Permitted, Secured, gate};
use super::ctx::Ctx;
use super::render::{page, page_with};
use super::state::{AppState, db};
use crate::app::accounts::{self, UserChange};
use crate::db::models::UserRow;
use crate::domain::form::FieldErrors;
use crate::domain::ids::UserId;
use crate::domain::role::Role;
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "users.html")]
struct UsersPage {
    ctx: Ctx,
    users: Vec<UserRow>,
    roles: [Role; 3],
    form: NewUserForm,
    errors: FieldErrors,
}

#[derive(Deserialize, Default)]
struct NewUserForm {
    #[serde(default)]
    username: String,
    #[serde(default)]
    role: String,
    #[serde(default)]
    password: String,
}

#[derive(Deserialize)]
struct ChangeForm {
    #[serde(default)]
    role: String,
    #[serde(default)]
    active: String,
    #[serde(default)]
    password: String,
}

async fn list(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageUsers>,
) -> Result<HttpResponse, AppError> {
    let users = db(&state, |conn| Ok(accounts::list(conn)?)).await?;
    page(&UsersPage {
        ctx: user.session.ctx(),
        users,
        roles: Role::ALL,
        form: NewUserForm::default(),
        errors: FieldErrors::new(),
    })
}

async fn create(
    state: web::Data<AppState>,
    post: Secured<NewUserForm, gate::ManageUsers>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let form = post.form;
    let mut errors = FieldErrors::new();
    let name = accounts::check_username(&form.username)
        .map_err(|m| errors.add("username", m))
        .ok()
        .map(str::to_string);
    let role = form
        .role
        .parse::<Role>()
        .map_err(|m| errors.add("role", m))
        .ok();
    let _ = accounts::check_password(&form.password).map_err(|m| errors.add("password", m));
    let (Some(name), Some(role), true) = (name, role, errors.is_empty()) else {
        let all = db(&state, |conn| Ok(accounts::list(conn)?)).await?;
        return page_with(
            &UsersPage {
                ctx: post.session.ctx(),
                users: all,
                roles: Role::ALL,
                form,
                errors,
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        );
    };
    let hash = accounts::hash_password(&form.password).map_err(AppError::Internal)?;
    let who = name.clone();
    let created = db(&state, move |conn| {
        match accounts::create(conn, Some(&actor), &who, &hash, role, false) {
            Ok(_) => Ok(true),
            Err(accounts::CreateError::Taken) => Ok(false),
            Err(accounts::CreateError::Db(e)) => Err(e.into()),
        }
    })
    .await?;
    if !created {
        let all = db(&state, |conn| Ok(accounts::list(conn)?)).await?;
        let errors = FieldErrors::single("username", format!("Das Konto «{name}» gibt es schon."));
        return page_with(
            &UsersPage {
                ctx: post.session.ctx(),
                users: all,
                roles: Role::ALL,
                form,
                errors,
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        );
    }
    flash_redirect("/users", format!("Konto «{name}» angelegt."))
}

async fn change(
    state: web::Data<AppState>,
    path: web::Path<UserId>,
    post: Secured<ChangeForm, gate::ManageUsers>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let target = path.into_inner();
    let role = if post.form.role.is_empty() {
        None
    } else {
        Some(
            post.form
                .role
                .parse::<Role>()
                .map_err(AppError::BadRequest)?,
        )
    };
    let active = match post.form.active.as_str() {
        "" => None,
        "1" => Some(true),
        "0" => Some(false),
        _ => return Err(AppError::BadRequest("Ungültiger Wert für «aktiv».".into())),
    };
    if target == actor.id && (active == Some(false) || role.is_some_and(|r| r != Role::Leitung)) {
        return Err(AppError::BadRequest(
            "Das eigene Konto lässt sich nicht sperren oder herabstufen.".into(),
        ));
    }
    let hash = if post.form.password.is_empty() {
        None
    } else {
        accounts::check_password(&post.form.password).map_err(AppError::BadRequest)?;
        Some(accounts::hash_password(&post.form.password).map_err(AppError::Internal)?)
    };
    let row = db(&state, move |conn| {
        Ok(accounts::update(
            conn,
            Some(&actor),
            target,
            UserChange {
                role,
                active,
                password_hash: hash.as_deref(),
            },
        )?)
    })
    .await?;
    flash_redirect("/users", format!("Konto «{}» geändert.", row.username))
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/users", web::get().to(list))
        .route("/users", web::post().to(create))
        .route("/users/{id}", web::post().to(change));
}
