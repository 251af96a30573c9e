//! The Handbuch at /hilfe: every chapter is served, every link between chapters arrives, and
//! a page's Hilfe link opens its chapter.

use crate::helpers::*;
use reqwest::StatusCode;
use std::collections::BTreeSet;

#[tokio::test]
async fn the_handbuch_is_served_and_its_links_all_arrive() {
    let app = spawn_app().await;
    let visitor = app.client();
    let index = visitor.html("/hilfe").await;
    assert_eq!(text(&index, "#handbuch-text h1"), "Handbuch");
    let chapters: BTreeSet<String> = select_attr(&index, ".handbuch-inhalt a", "href")
        .into_iter()
        .collect();
    assert!(chapters.len() >= 15, "{chapters:?}");
    let mut seen = BTreeSet::new();
    let mut pictures = 0;
    for chapter in &chapters {
        let page = visitor.html(chapter).await;
        assert!(!text(&page, "#handbuch-text h1").is_empty(), "{chapter}");
        for link in select_attr(&page, "#handbuch-text a", "href") {
            let Some(path) = link.strip_prefix("/hilfe") else {
                continue;
            };
            let (path, anchor) = path.split_once('#').unwrap_or((path, ""));
            let target = format!("/hilfe{path}");
            let (status, html) = visitor.page(&target).await;
            assert_eq!(status, StatusCode::OK, "{chapter} → {link}");
            if !anchor.is_empty() {
                assert!(
                    !select_all(&html, &format!("[id=\"{anchor}\"]")).is_empty(),
                    "{chapter} → {link}: no heading {anchor}"
                );
            }
            seen.insert(target);
        }
        for picture in select_attr(&page, "#handbuch-text img", "src") {
            let r = visitor.get(&picture).await;
            assert_eq!(r.status(), StatusCode::OK, "{chapter} → {picture}");
            let bytes = r.bytes().await.unwrap();
            assert!(bytes.starts_with(b"\x89PNG"), "{picture} is no PNG");
            pictures += 1;
        }
    }
    assert!(pictures >= 4, "{pictures} pictures");
    assert!(seen.len() >= 10, "the chapters link each other: {seen:?}");
    let (status, _) = visitor.page("/hilfe/gibt-es-nicht").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_pages_hilfe_link_opens_its_chapter() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    for (page, chapter) in [
        (
            format!("/tournaments/{id}/passen/1/entry"),
            "/hilfe/resultate",
        ),
        (format!("/tournaments/{id}/draw"), "/hilfe/auslosung"),
        (format!("/tournaments/{id}/ranking"), "/hilfe/rangliste"),
        ("/users".to_string(), "/hilfe/benutzer"),
    ] {
        let html = leitung.html(&page).await;
        assert_eq!(
            attr(&html, "#hilfe-link", "href").as_deref(),
            Some(chapter),
            "{page}"
        );
        let help = leitung.html(chapter).await;
        assert!(!text(&help, "#handbuch-text h1").is_empty());
    }
    // Every page says which build it is.
    let html = leitung.html("/").await;
    assert!(
        text(&html, ".app-footer").contains(env!("CARGO_PKG_VERSION")),
        "{}",
        text(&html, ".app-footer")
    );
}
