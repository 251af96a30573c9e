//! `/hilfe`: the Handbuch, public (players at the tables read its chapter on their phones).

use super::auth::MaybeUser;
use super::ctx::Ctx;
use super::render::page;
use crate::handbook::{self, CHAPTERS};
use crate::web::error::AppError;
use actix_web::{HttpResponse, web};
use askama::Template;

pub struct ChapterLink {
    pub slug: &'static str,
    pub title: String,
    pub current: bool,
}

#[derive(Template)]
#[template(path = "hilfe.html")]
struct HelpPage {
    ctx: Ctx,
    title: String,
    chapters: Vec<ChapterLink>,
    body: String,
}

async fn show(user: MaybeUser, slug: Option<String>) -> Result<HttpResponse, AppError> {
    let slug = slug.unwrap_or_else(|| "index".into());
    let chapter = handbook::chapter(&slug).ok_or_else(AppError::not_found)?;
    page(&HelpPage {
        ctx: user.0.map_or_else(Ctx::anonymous, |s| s.ctx()),
        title: chapter.title(),
        chapters: CHAPTERS
            .iter()
            .filter(|c| c.slug != "index")
            .map(|c| ChapterLink {
                slug: c.slug,
                title: c.title(),
                current: c.slug == chapter.slug,
            })
            .collect(),
        body: chapter.html(),
    })
}

async fn index(user: MaybeUser) -> Result<HttpResponse, AppError> {
    show(user, None).await
}

async fn chapter(user: MaybeUser, slug: web::Path<String>) -> Result<HttpResponse, AppError> {
    show(user, Some(slug.into_inner())).await
}

async fn picture(name: web::Path<String>) -> Result<HttpResponse, AppError> {
    let (_, bytes) = handbook::PICTURES
        .iter()
        .find(|(n, _)| *n == name.as_str())
        .ok_or_else(AppError::not_found)?;
    Ok(HttpResponse::Ok()
        .content_type("image/png")
        .insert_header(("Cache-Control", "public, max-age=3600"))
        .body(*bytes))
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/hilfe", web::get().to(index))
        .route("/hilfe/", web::get().to(index))
        .route("/hilfe/bilder/{name}", web::get().to(picture))
        .route("/hilfe/{slug}", web::get().to(chapter));
}
