//! The Handbuch: German chapters in `docs/handbuch/`, embedded in the binary (it runs from
//! any directory) and rendered to HTML for `/hilfe`. Links between chapters are written as
//! the Markdown files name each other (`auslosung.md#seed`), so the same files read on a
//! code host; here they become `/hilfe/auslosung#seed`.

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};

/// One chapter: its address (`/hilfe/{slug}`) and its Markdown.
pub struct Chapter {
    pub slug: &'static str,
    pub markdown: &'static str,
}

macro_rules! chapters {
    ($($slug:literal),* $(,)?) => {
        &[$(Chapter {
            slug: $slug,
            markdown: include_str!(concat!("../docs/handbuch/", $slug, ".md")),
        }),*]
    };
}

/// In the Handbuch's order; `index` is the table of contents at `/hilfe`.
pub const CHAPTERS: &[Chapter] = chapters!(
    "index",
    "vorbereitung",
    "teams",
    "auslosung",
    "resultate",
    "kontrolle",
    "ausscheiden",
    "rangliste",
    "jassmarathon",
    "einzelschieber",
    "differenzler",
    "tisch",
    "halle",
    "datensicherung",
    "benutzer",
    "einstellungen",
    "register",
    "jasscup",
    "fragen",
);

/// Pictures the chapters show (`bilder/NAME.png`), made by `scripts/handbuch-bilder.sh`.
pub const PICTURES: &[(&str, &[u8])] = &[
    (
        "erfassen.png",
        include_bytes!("../docs/handbuch/bilder/erfassen.png"),
    ),
    (
        "passe.png",
        include_bytes!("../docs/handbuch/bilder/passe.png"),
    ),
    (
        "beamer.png",
        include_bytes!("../docs/handbuch/bilder/beamer.png"),
    ),
    (
        "teamseite.png",
        include_bytes!("../docs/handbuch/bilder/teamseite.png"),
    ),
];

pub fn chapter(slug: &str) -> Option<&'static Chapter> {
    CHAPTERS.iter().find(|c| c.slug == slug)
}

impl Chapter {
    /// The text of the first heading.
    pub fn title(&self) -> String {
        let mut in_title = false;
        let mut title = String::new();
        for event in Parser::new(self.markdown) {
            match event {
                Event::Start(Tag::Heading {
                    level: HeadingLevel::H1,
                    ..
                }) => in_title = true,
                Event::End(TagEnd::Heading(HeadingLevel::H1)) => break,
                Event::Text(t) | Event::Code(t) if in_title => title.push_str(&t),
                _ => {}
            }
        }
        title
    }

    /// The chapter as HTML, its links to other chapters and pictures made into addresses of
    /// this server, its headings with an `id` to link to.
    pub fn html(&self) -> String {
        let events =
            Parser::new_ext(self.markdown, Options::ENABLE_TABLES).map(|event| match event {
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                }) => Event::Start(Tag::Link {
                    link_type,
                    dest_url: address(dest_url),
                    title,
                    id,
                }),
                Event::Start(Tag::Image {
                    link_type,
                    dest_url,
                    title,
                    id,
                }) => Event::Start(Tag::Image {
                    link_type,
                    dest_url: address(dest_url),
                    title,
                    id,
                }),
                other => other,
            });
        let mut out = String::with_capacity(self.markdown.len() * 3 / 2);
        html::push_html(&mut out, with_heading_ids(events).into_iter());
        out
    }

    /// Where the chapter's links point: other chapters (`slug`, `slug#anchor`) and pictures,
    /// for the link check.
    pub fn links(&self) -> Vec<String> {
        Parser::new_ext(self.markdown, Options::ENABLE_TABLES)
            .filter_map(|event| match event {
                Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                    Some(dest_url.to_string())
                }
                _ => None,
            })
            .collect()
    }

    /// The `id`s its headings get (`## Der Seed` → `der-seed`).
    pub fn anchors(&self) -> Vec<String> {
        let mut anchors = Vec::new();
        let mut heading: Option<String> = None;
        for event in Parser::new(self.markdown) {
            match event {
                Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
                Event::End(TagEnd::Heading(_)) => {
                    anchors.extend(heading.take().map(|h| anchor(&h)))
                }
                Event::Text(t) | Event::Code(t) => {
                    if let Some(h) = heading.as_mut() {
                        h.push_str(&t);
                    }
                }
                _ => {}
            }
        }
        anchors
    }
}

/// `auslosung.md#seed` → `/hilfe/auslosung#seed`, `bilder/x.png` → `/hilfe/bilder/x.png`;
/// other links (`https://…`, `/tournaments`) stay.
fn address(dest: CowStr<'_>) -> CowStr<'_> {
    if dest.contains("://") || dest.starts_with('/') || dest.starts_with('#') {
        return dest;
    }
    let (path, fragment) = dest.split_once('#').unwrap_or((&dest, ""));
    let path = path.strip_suffix(".md").unwrap_or(path);
    let path = if path == "index" { "" } else { path };
    let fragment = if fragment.is_empty() {
        String::new()
    } else {
        format!("#{fragment}")
    };
    CowStr::from(format!("/hilfe/{path}{fragment}"))
}

/// A heading's anchor: lower case, umlauts kept, spaces as dashes, other signs dropped.
pub fn anchor(heading: &str) -> String {
    let mut out = String::with_capacity(heading.len());
    for c in heading.trim().chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if (c == ' ' || c == '-') && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// The events with an `id` on every heading that has none.
fn with_heading_ids<'a>(events: impl Iterator<Item = Event<'a>>) -> Vec<Event<'a>> {
    let events: Vec<Event<'a>> = events.collect();
    let mut out = Vec::with_capacity(events.len());
    let mut i = 0;
    while i < events.len() {
        if let Event::Start(Tag::Heading {
            level,
            id: None,
            classes,
            attrs,
        }) = &events[i]
        {
            let text: String = events[i + 1..]
                .iter()
                .take_while(|e| !matches!(e, Event::End(TagEnd::Heading(_))))
                .filter_map(|e| match e {
                    Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                    _ => None,
                })
                .collect();
            out.push(Event::Start(Tag::Heading {
                level: *level,
                id: Some(CowStr::from(anchor(&text))),
                classes: classes.clone(),
                attrs: attrs.clone(),
            }));
        } else {
            out.push(events[i].clone());
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every link of every chapter reaches a chapter (and a heading of it) or a picture.
    #[test]
    fn every_handbuch_link_points_at_a_chapter_that_exists() {
        let mut broken = Vec::new();
        for c in CHAPTERS {
            for link in c.links() {
                if link.contains("://") || link.starts_with('/') {
                    continue;
                }
                let (path, fragment) = link.split_once('#').unwrap_or((&link, ""));
                let ok = if let Some(picture) = path.strip_prefix("bilder/") {
                    PICTURES.iter().any(|(name, _)| *name == picture)
                } else {
                    let target = if path.is_empty() {
                        Some(c)
                    } else {
                        path.strip_suffix(".md").and_then(chapter)
                    };
                    target.is_some_and(|t| {
                        fragment.is_empty() || t.anchors().iter().any(|a| a == fragment)
                    })
                };
                if !ok {
                    broken.push(format!("{}.md → {link}", c.slug));
                }
            }
        }
        assert!(broken.is_empty(), "links to nothing: {broken:#?}");
    }

    /// Every page names its chapter in `{% block help %}`; that chapter must exist.
    #[test]
    fn every_pages_hilfe_link_opens_a_chapter() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
        let mut named = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            if !text.contains("{% extends \"base.html\" %}") {
                continue;
            }
            let slug = text
                .split("{% block help %}")
                .nth(1)
                .and_then(|rest| rest.split("{% endblock %}").next())
                .unwrap_or_else(|| panic!("{} names no Hilfe chapter", path.display()));
            assert!(
                chapter(slug).is_some(),
                "{}: no chapter {slug}",
                path.display()
            );
            named += 1;
        }
        assert!(named > 20, "{named} pages");
    }

    #[test]
    fn chapter_links_become_addresses_of_the_server() {
        let c = Chapter {
            slug: "x",
            markdown: "# Titel\n\n## Der Seed\n\nSiehe [Auslosung](auslosung.md#der-seed), \
                       [oben](#der-seed), [Inhalt](index.md) und [extern](https://jass.ch).",
        };
        let html = c.html();
        assert!(
            html.contains(r#"href="/hilfe/auslosung#der-seed""#),
            "{html}"
        );
        assert!(html.contains(r##"href="#der-seed""##), "{html}");
        assert!(html.contains(r#"href="/hilfe/""#), "{html}");
        assert!(html.contains(r#"href="https://jass.ch""#), "{html}");
        assert!(html.contains(r#"<h2 id="der-seed">"#), "{html}");
        assert_eq!(c.title(), "Titel");
        assert_eq!(
            anchor("Häufige Fragen: Stichentscheid?"),
            "häufige-fragen-stichentscheid"
        );
    }
}
