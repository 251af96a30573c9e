//! The "Halle" page for the Leitung: at which addresses phones in the hall reach this
//! server, a warning when it listens on this machine only, the address printed in QR codes,
//! and a test QR code; plus the public test page that QR code opens.

use super::auth::{Permitted, gate};
use super::ctx::Ctx;
use super::live::page::qr_svg;
use super::render::{base_url, page};
use super::state::{AppState, db};
use crate::web::error::AppError;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use std::net::{IpAddr, SocketAddr};

/// The public page the test QR code opens: if a phone shows it, the hall reaches the server.
pub const TEST_PATH: &str = "/hallentest";

#[derive(Template)]
#[template(path = "hall.html")]
struct HallPage {
    ctx: Ctx,
    listen: String,
    loopback_only: bool,
    /// `--bind` for the same port on every interface.
    bind_command: String,
    addresses: Vec<String>,
    public_url: Option<String>,
    /// The address QR codes use for this request when no public URL is set.
    printed_base: String,
    test_url: String,
    test_qr: String,
    /// The name and key this instance signs tournament reports with (Jass-Cup).
    own: crate::app::reports::OwnKey,
}

/// Addresses of this machine's network interfaces that phones may reach (no loopback, no
/// IPv6 link-local), as URLs for `listen`.
pub fn hall_addresses(listen: SocketAddr, interfaces: &[IpAddr]) -> Vec<String> {
    let reachable = |ip: &IpAddr| match ip {
        IpAddr::V4(v4) => !v4.is_loopback() && !v4.is_link_local(),
        IpAddr::V6(v6) => !v6.is_loopback() && (v6.segments()[0] & 0xffc0) != 0xfe80,
    };
    let ips: Vec<IpAddr> = if listen.ip().is_loopback() {
        Vec::new()
    } else if listen.ip().is_unspecified() {
        interfaces
            .iter()
            .filter(|ip| reachable(ip) && ip.is_ipv4() == listen.ip().is_ipv4())
            .copied()
            .collect()
    } else {
        vec![listen.ip()]
    };
    ips.into_iter()
        .map(|ip| format!("http://{}", SocketAddr::new(ip, listen.port())))
        .collect()
}

/// The address to print for phones when no request says where the viewer is: the public URL,
/// else the first address phones can reach, else the address the server listens on.
pub fn default_phone_base(state: &AppState) -> String {
    state.public_url.clone().unwrap_or_else(|| {
        hall_addresses(state.listen, &interfaces())
            .into_iter()
            .next()
            .unwrap_or_else(|| format!("http://{}", state.listen))
    })
}

/// The address to print for phones (QR codes, the beamer's footer): the public URL if set;
/// else, when the office opened the page on this computer (`127.0.0.1`) while the server
/// listens for the hall, the first address phones can reach; else the address of the request.
pub fn phone_base(state: &AppState, req: &HttpRequest) -> String {
    let base = base_url(state, req);
    if state.public_url.is_some() {
        return base;
    }
    let host_is_loopback = req
        .connection_info()
        .host()
        .rsplit_once(':')
        .map_or(req.connection_info().host().to_string(), |(h, _)| {
            h.to_string()
        })
        .trim_matches(|c| c == '[' || c == ']')
        .parse::<IpAddr>()
        .is_ok_and(|ip| ip.is_loopback())
        || req.connection_info().host().starts_with("localhost");
    if host_is_loopback {
        hall_addresses(state.listen, &interfaces())
            .into_iter()
            .next()
            .unwrap_or(base)
    } else {
        base
    }
}

fn interfaces() -> Vec<IpAddr> {
    match if_addrs::get_if_addrs() {
        Ok(list) => list.into_iter().map(|i| i.ip()).collect(),
        Err(e) => {
            tracing::warn!("network interfaces not readable: {e}");
            Vec::new()
        }
    }
}

async fn show(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTournament>,
    req: HttpRequest,
) -> Result<HttpResponse, AppError> {
    let listen = state.listen;
    let addresses = hall_addresses(listen, &interfaces());
    let printed_base = base_url(&state, &req);
    let test_base = state
        .public_url
        .as_deref()
        .map(|u| u.trim_end_matches('/').to_string())
        .or_else(|| addresses.first().cloned())
        .unwrap_or_else(|| printed_base.clone());
    let test_url = format!("{test_base}{TEST_PATH}");
    let own = db(&state, |conn| Ok(crate::app::reports::own_key(conn)?)).await?;
    page(&HallPage {
        own,
        ctx: user.session.ctx(),
        listen: listen.to_string(),
        loopback_only: listen.ip().is_loopback(),
        bind_command: format!("jassturnier --bind 0.0.0.0:{}", listen.port()),
        addresses,
        public_url: state.public_url.clone(),
        printed_base,
        test_qr: qr_svg(&test_url),
        test_url,
    })
}

async fn test_page() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(concat!(
            "<!doctype html><html lang=\"de-CH\"><head><meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<title>Verbindung OK</title></head><body>",
            "<h1 id=\"ok\">Verbindung zum Turnierbüro: OK</h1>",
            "<p>Dieses Telefon erreicht die Jassturnier-App.</p></body></html>"
        ))
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/halle", web::get().to(show))
        .route(TEST_PATH, web::get().to(test_page));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_follow_the_bind_address() {
        let interfaces: Vec<IpAddr> = [
            "127.0.0.1",
            "192.168.1.20",
            "169.254.3.4",
            "fe80::1",
            "10.0.0.5",
        ]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
        let on = |bind: &str| hall_addresses(bind.parse().unwrap(), &interfaces);
        assert!(
            on("127.0.0.1:8080").is_empty(),
            "loopback: no phone reaches it"
        );
        assert_eq!(
            on("0.0.0.0:8080"),
            vec!["http://192.168.1.20:8080", "http://10.0.0.5:8080"]
        );
        assert_eq!(on("192.168.1.20:9000"), vec!["http://192.168.1.20:9000"]);
    }
}
