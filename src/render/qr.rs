//! QR codes (in the terminal, and as SVG for pages) and the addresses phones on the venue's network use to
//! reach this machine.

use qrcode::QrCode;
use qrcode::render::{svg, unicode};
use std::net::{IpAddr, Ipv4Addr};

/// `text` as a QR code drawn with block characters (two rows of modules per line), with its quiet zone;
/// None when the text is too long for a QR code.
pub fn terminal(text: &str) -> Option<String> {
    let code = QrCode::new(text.as_bytes()).ok()?;
    Some(
        code.render::<unicode::Dense1x2>()
            .dark_color(unicode::Dense1x2::Light)
            .light_color(unicode::Dense1x2::Dark)
            .build(),
    )
}

/// `text` as an SVG QR code (for a page), or None when it is too long.
pub fn svg(text: &str) -> Option<String> {
    let code = QrCode::new(text.as_bytes()).ok()?;
    Some(code.render::<svg::Color<'_>>().min_dimensions(180, 180).build())
}

/// This machine's IPv4 addresses on its networks (loopback left out), in a stable order; empty when the
/// system will not say.
pub fn lan_addresses() -> Vec<Ipv4Addr> {
    let mut found: Vec<Ipv4Addr> = if_addrs::get_if_addrs()
        .unwrap_or_default()
        .into_iter()
        .filter_map(|i| match i.ip() {
            IpAddr::V4(a) if !a.is_loopback() && !a.is_unspecified() && !a.is_link_local() => Some(a),
            _ => None,
        })
        .collect();
    found.sort();
    found.dedup();
    found
}

/// Where `mmjudge serve` listens unless `--bind` says otherwise (so the address `judge add` puts in its QR code).
pub const DEFAULT_BIND: &str = "0.0.0.0:8080";

/// The addresses `mmjudge serve` announces for `bind` (`scheme` `http` or `https`): with an unspecified
/// address (0.0.0.0), this machine's network addresses (127.0.0.1 when it has none), else `bind` itself.
pub fn announced(bind: std::net::SocketAddr, scheme: &str) -> Vec<String> {
    if !bind.ip().is_unspecified() {
        return vec![format!("{scheme}://{bind}")];
    }
    let mut found: Vec<String> = lan_addresses().iter().map(|ip| format!("{scheme}://{ip}:{}", bind.port())).collect();
    if found.is_empty() {
        found.push(format!("{scheme}://127.0.0.1:{}", bind.port()));
    }
    found
}

/// The address a judge's phone opens by default, for the login QR code: the first address `mmjudge serve`
/// announces when it runs with its default `--bind` (plain HTTP).
pub fn default_url() -> String {
    let bind = DEFAULT_BIND.parse().unwrap_or(std::net::SocketAddr::from(([0, 0, 0, 0], 8080)));
    announced(bind, "http").into_iter().next().unwrap_or_else(|| "http://127.0.0.1:8080".into())
}

/// The set-up link of `serve --new` at the first address announced for `bind`: `link` is its path,
/// `/setup#token=...`.
pub fn setup_link(bind: std::net::SocketAddr, scheme: &str, link: &str) -> String {
    let base = announced(bind, scheme).into_iter().next().unwrap_or_default();
    format!("{}{link}", base.trim_end_matches('/'))
}

/// What the terminal shows for the set-up link until the event is set up: the link, and (`with_code`) its QR code
/// labelled "set up", apart from the players' one.
pub fn setup_block(link: &str, with_code: bool) -> String {
    let mut text = format!(
        "set up: open this link once to create the event and its head judge (it works once, and only until this server stops):\n  {link}\n"
    );
    if with_code && let Some(code) = terminal(link) {
        text.push_str("set up (scan with the head judge's phone, or open the link above on this computer):\n");
        text.push_str(&code);
    }
    text
}
