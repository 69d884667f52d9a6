//! QR codes (in the terminal, and as SVG for pages) and the addresses phones on the venue's network use to
//! reach this machine.

use qrcode::QrCode;
use qrcode::render::{svg, unicode};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

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

/// The address a judge's phone opens by default (`http://FIRST-ADDRESS:8080`), for the login QR code.
pub fn default_url() -> String {
    let host = lan_addresses().first().map(|a| a.to_string()).unwrap_or_else(|| "127.0.0.1".into());
    format!("http://{host}:8080")
}

/// The addresses phones use to reach a server listening on `addr`: every network address of this machine for
/// an unspecified address (0.0.0.0), else that address; the first is the one announced.
pub fn site_urls(addr: SocketAddr) -> Vec<String> {
    if !addr.ip().is_unspecified() {
        return vec![format!("http://{addr}")];
    }
    let mut found: Vec<String> = lan_addresses().iter().map(|ip| format!("http://{ip}:{}", addr.port())).collect();
    if found.is_empty() {
        found.push(format!("http://127.0.0.1:{}", addr.port()));
    }
    found
}
