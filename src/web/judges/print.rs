//! Prints from the phone: `GET /judge/print` lists the printouts, each a page under `/judge/print/...` that is
//! the command line's own HTML (the same `render` page), ready for the browser's print dialog. A print page is
//! sent with a CSP allowing its own inline style by hash (and nothing else inline). The players' codes carry
//! secrets: head judges only, never kept by any cache. Every print is drawn in the blocking pool within its
//! request's deadline, with the store's read that gathers it ([`drawn_print`]).

use crate::ops::judges::Role;
use crate::render::pairings::{PairingsPage, WallPage};
use crate::render::player_slips::SlipsPage;
use crate::web::kit::auth::Judge;
use crate::web::kit::drawn::{self, Deadline};
use crate::web::kit::extract::Query;
use crate::web::kit::page;
use crate::web::kit::request::ApiError;
use askama::Template;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use base64::Engine;
use sha2::{Digest, Sha256};

/// The printouts, as the index lists them: address, title, what it is, head judges only.
const PRINTS: [(&str, &str, &str, bool); 9] = [
    ("/judge/print/codes", "Players' codes", "one slip a player: the code, the site's address and its QR code", true),
    ("/judge/print/pairings", "Pairings", "the round by table, then by name", false),
    ("/judge/print/pairings/wall", "Pairings for the wall", "every player by name, then table, in large type", false),
    ("/judge/print/slips", "Result slips", "one slip a table of the round, to hand out and fill in", false),
    ("/judge/print/standings", "Standings", "after the last round with every result in", false),
    ("/judge/print/notes", "Note sheets", "every table's template notes this round, two columns a table", false),
    ("/judge/print/decks", "Deck sheets", "every library's cards by cost, for deck checks", false),
    ("/judge/print/curation", "Curation report", "the card pool's costs checked, the flagged ones first", false),
    (
        "/judge/print/site.zip",
        "The event's site",
        "every page of the judges' site in one zip file, to keep or put online",
        false,
    ),
];

#[derive(Template, serde::Serialize)]
#[template(path = "web/print.html")]
struct PrintIndex {
    home: crate::web::kit::page::Head,
    judge: crate::ops::judges::SessionJudge,
    prints: Vec<(String, &'static str, String)>,
}

/// `GET /judge/print` (judges): the printouts this judge may open.
pub async fn index(judge: Result<Judge, ApiError>, headers: HeaderMap) -> Result<Response, ApiError> {
    let judge = match page::judge_or_login(judge, &headers) {
        Ok(j) => j,
        Err(to_login) => return Ok(*to_login),
    };
    let deadline = judge.deadline;
    let home = page::home(&judge.db).await?;
    let head = judge.judge.role == Role::Head;
    let (played, players) = judge
        .db
        .run(|store| {
            let players = store.read(crate::store::player::count)? as usize;
            Ok((crate::ops::corrections::rounds_played(store)?, players))
        })
        .await?;
    let mut prints: Vec<(String, &'static str, String)> = Vec::new();
    for p in PRINTS.iter().filter(|p| head || !p.3) {
        match p.0 {
            // The standings exist once a round has every result in: before that the title alone, no link.
            "/judge/print/standings" if played == 0 => {
                prints.push((String::new(), p.1, "after round 1, once every result of it is in".into()))
            }
            // A large event's codes print in parts, each listed.
            "/judge/print/codes" if crate::ops::players::codes::parts(players) > 1 => {
                let of = crate::ops::players::codes::parts(players);
                let per = crate::ops::players::codes::SLIPS_PER_PART;
                for n in 1..=of {
                    let (first, last) = ((n - 1) * per + 1, (n * per).min(players));
                    let g = |n: usize| crate::domain::bounds::grouped(n as i64);
                    let what = format!("part {n} of {of}: players {} to {}, one slip each", g(first), g(last));
                    prints.push((format!("/judge/print/codes?part={n}"), p.1, what));
                }
            }
            _ => prints.push((p.0.to_string(), p.1, p.2.to_string())),
        }
    }
    Ok(page::page(deadline, StatusCode::OK, PrintIndex { home, judge: judge.judge, prints }).await)
}

/// Reads a print from the store and draws it, in the blocking pool within the judge's request's deadline: `f`
/// gathers the print and draws its HTML (see [`crate::render::deadline::draw`]); answered as [`print_page`].
/// Past the deadline its drawing stops and the answer is the time limit's 503.
pub(super) async fn drawn_print(
    judge: &Judge,
    secret: bool,
    f: impl FnOnce(&mut crate::store::Store) -> crate::error::Result<Result<String, ApiError>> + Send + 'static,
) -> Result<Response, ApiError> {
    let deadline = judge.deadline;
    judge
        .db
        .run(move |store| {
            Ok(drawn::drawn(deadline, move || {
                let html = f(store).map_err(ApiError::from)??;
                Ok(print_page(html, secret, deadline))
            }))
        })
        .await?
}

/// A print page: the HTML with a CSP naming the hash of each of its inline styles and this server's own files (the
/// print bar's, and the stylesheet the site's pages link); `secret`: kept by no cache. It ends with a newline, as
/// the command line's file does, and is that file with the phone's print bar (see [`with_print_bar`]). Made in
/// the blocking pool; its bytes are compressed there too, within `deadline` (see [`drawn::html`]).
pub(super) fn print_page(mut html: String, secret: bool, deadline: Deadline) -> Response {
    // The page as the command line writes it to a file: ending with a newline.
    if !html.ends_with('\n') {
        html.push('\n');
    }
    let html = with_print_bar(html);
    let mut hashes = String::new();
    let mut rest = html.as_str();
    while let Some(open) = rest.find("<style>") {
        let after = &rest[open + "<style>".len()..];
        let Some(close) = after.find("</style>") else { break };
        let digest = Sha256::digest(&after.as_bytes()[..close]);
        hashes.push_str(&format!(" 'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(digest)));
        rest = &after[close..];
    }
    let csp = format!(
        "default-src 'none'; img-src 'self' data:; style-src 'self'{hashes}; script-src 'self'; frame-ancestors \
         'none'; form-action 'none'"
    );
    let mut res = drawn::html(html, deadline);
    if let Ok(v) = HeaderValue::from_str(&csp) {
        res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, v);
    }
    if secret {
        res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    res
}

/// The bar a print page opened on a phone starts with: back to the prints, and a Print button (the browser's
/// print dialog); it is never printed. Its stylesheet and script are linked at the end of the head.
pub const PRINT_BAR: &str = "<nav class=\"print-bar\"><a href=\"/judge/print\">← Prints</a> \
     <button type=\"button\" id=\"print-now\">Print</button></nav>";

/// The command line's page `html` with the phone's print bar: first in its body, its files linked in its head.
pub fn with_print_bar(html: String) -> String {
    let links = format!(
        "<link rel=\"stylesheet\" href=\"{}\">\n<script src=\"{}\" defer></script>\n</head>",
        crate::render::assets::url("print.css"),
        crate::render::assets::url("print.js")
    );
    let Some(head_end) = html.find("</head>") else { return html };
    let mut out = String::with_capacity(html.len() + links.len() + PRINT_BAR.len() + 1);
    out.push_str(&html[..head_end]);
    out.push_str(&links);
    let rest = &html[head_end + "</head>".len()..];
    match rest.find("<body").and_then(|b| rest[b..].find('>').map(|e| b + e + 1)) {
        Some(body) => {
            out.push_str(&rest[..body]);
            out.push('\n');
            out.push_str(PRINT_BAR);
            out.push_str(&rest[body..]);
        }
        None => out.push_str(rest),
    }
    out
}

/// A print drawn (within the thread's deadline), or the 500 of a print that could not be.
pub(super) fn draw_print<T: askama::Template>(page: &T) -> Result<String, ApiError> {
    crate::render::deadline::draw(page)
        .map_err(|e| ApiError::internal_because("a print page could not be drawn", e.to_string()))
}

/// `?name=` of the codes page: one player's slip (after a new code); `?part=N`: part N of a print in parts.
#[derive(Debug, Default, serde::Deserialize)]
pub struct CodesQuery {
    /// The player (any unambiguous part of the name).
    pub name: Option<String>,
    /// The part (from 1; default 1).
    pub part: Option<String>,
}

/// `GET /judge/print/codes` (head judges; `no-store`): every player's slip with their code and the QR code of
/// the address `serve` announces, as `mmjudge player codes --html`; `?name=` one player's.
pub async fn codes(judge: Judge, Query(q): Query<CodesQuery>) -> Result<Response, ApiError> {
    judge.judge.require_head("printing the players' codes").map_err(ApiError::from)?;
    let site = judge.db.app().site.clone();
    let part = match q.part.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
        None => 1,
        Some(p) => p.parse::<usize>().map_err(|_| {
            ApiError::from(crate::error::Error::bad_input(format!(
                "part: give the part's number, such as 2 (the Prints page lists them), not \"{p}\""
            )))
        })?,
    };
    // A part at most (see `SLIPS_PER_PART`): a large event's codes never make one page too large to draw in time.
    drawn_print(&judge, true, move |store| {
        let (all, event) = crate::ops::views::codes(store)?;
        let page = match q.name {
            Some(name) => {
                let p = crate::ops::views::code_of(store, &name)?;
                let one: Vec<_> = all.into_iter().filter(|c| c.id == p.id).collect();
                SlipsPage::new(&event, &site, &one)
            }
            None => {
                let (slips, part) = crate::ops::players::codes::part_of(all, part)?;
                SlipsPage::new(&event, &site, &slips).in_part(part)
            }
        };
        Ok(draw_print(&page))
    })
    .await
}

/// `GET /judge/print/pairings` (judges): the current round by table and by name, as `mmjudge pairings --html`.
pub async fn pairings(judge: Judge) -> Result<Response, ApiError> {
    drawn_print(&judge, false, |store| {
        let (page, head) = current_pairings(store, "pairings")?;
        let mut print = PairingsPage::from(page);
        print.head = head;
        Ok(draw_print(&print))
    })
    .await
}

/// `GET /judge/print/pairings/wall` (judges): the wall sheet, as `mmjudge pairings --html --wall`.
pub async fn wall(judge: Judge) -> Result<Response, ApiError> {
    drawn_print(&judge, false, |store| {
        let (page, head) = current_pairings(store, "pairings by name")?;
        Ok(draw_print(&WallPage::new(&page, head, false)))
    })
    .await
}

/// The current round's pairings and the print's head line naming them as `what`.
fn current_pairings(
    store: &mut crate::store::Store,
    what: &str,
) -> crate::error::Result<(crate::ops::pairings::Pairings, String)> {
    let snapshot = store.snapshot()?;
    let page = crate::ops::pairings::pairings(&snapshot, None)?;
    let head = crate::ops::event::print_head(&snapshot)?.line(Some(page.round), what);
    Ok((page, head))
}
