//! Printable slips of the players' codes (`player codes --html FILE`): one per player, with the event's name,
//! the player's name and code, and how to reach the live server (its address and a QR code of the player's
//! page there).

use crate::ops::players::codes::PlayerCode;
use askama::Template;

/// One player's slip.
#[derive(Debug, Clone, PartialEq)]
pub struct Slip {
    /// The player's name.
    pub name: String,
    /// The code.
    pub code: String,
    /// The player's page on the server (`URL/me?name=NAME`), percent-encoded: what the QR code holds.
    pub url: String,
    /// The address printed for people to type (`URL/me`, where they find their name): readable, unencoded.
    pub address: String,
    /// That address as an SVG QR code (None when too long for one).
    pub qr: Option<String>,
}

/// Every slip of the event.
#[derive(Debug, Clone, PartialEq, Template)]
#[template(path = "player_slips.html")]
pub struct SlipsPage {
    /// The event's name.
    pub event: String,
    /// One slip per player.
    pub slips: Vec<Slip>,
    /// Which part of a print in parts this page is ("part 2 of 3: players 501 to 1,000"), empty for the whole.
    pub part: String,
}

impl SlipsPage {
    /// The slips of `players` for a server at `base` (`http://192.168.1.20:8080`). Their QR codes are most of
    /// the work: drawn for the server, they stop past the thread's deadline (see [`super::deadline`]).
    pub fn new(event: &str, base: &str, players: &[PlayerCode]) -> Self {
        let base = base.trim().trim_end_matches('/');
        let slips = players
            .iter()
            .take_while(|_| !super::deadline::passed(0))
            .map(|p| {
                let url = format!("{base}/me?name={}", crate::domain::text::url_query(&p.name));
                // Inline in the page: the drawing without its XML declaration.
                let qr =
                    super::qr::svg(&url).map(|svg| svg.find("<svg").map_or(svg.clone(), |at| svg[at..].to_string()));
                Slip { name: p.name.clone(), code: p.code.clone(), qr, url, address: format!("{base}/me") }
            })
            .collect();
        SlipsPage { event: event.to_string(), slips, part: String::new() }
    }

    /// The page as part `part` of a print in parts.
    pub fn in_part(mut self, part: crate::ops::players::codes::Part) -> Self {
        if part.of > 1 {
            let g = |n: usize| crate::domain::bounds::grouped(n as i64);
            self.part = format!("part {} of {}: players {} to {}", part.number, part.of, g(part.first), g(part.last));
        }
        self
    }

    /// The page as HTML.
    pub fn render(&self) -> Result<String, askama::Error> {
        Template::render(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::PlayerId;

    #[test]
    fn one_slip_per_player_with_the_code_and_the_players_page() {
        let players = vec![PlayerCode { id: PlayerId(1), name: "Ana <b>".into(), code: "012345".into() }];
        let page = SlipsPage::new("Spring Open", "http://10.0.0.5:8080/", &players);
        assert_eq!(page.slips[0].url, "http://10.0.0.5:8080/me?name=Ana%20%3Cb%3E");
        assert_eq!(page.slips[0].address, "http://10.0.0.5:8080/me", "the address to type is readable");
        let html = page.render().expect("renders");
        assert!(html.contains("012345") && html.contains("Spring Open") && html.contains("<svg"), "{html}");
        assert!(html.contains("<h2>Ana &#60;b&#62;</h2>") && !html.contains("Ana <b>"), "names are escaped");
        assert!(!html.contains("%20") && html.contains("http://10.0.0.5:8080/me</span> and find your name"), "{html}");
    }
}
