//! One page per declared card (`card-NAME.html`), linked from the judging page: what `cards show` says about
//! it (cost, type, the text of each face, P/T or loyalty, rulings, Mental Magic status and rulings).

use super::{CARDS, Frame, Page, Pages, Site, render};
use crate::error::Result;
use crate::ops::card_reference as reference;
use crate::ops::cards::{self, CardView};
use crate::ops::table::note as notes;
use crate::store::PlayerId;
use askama::Template;

/// A card declared at a table.
pub struct Declared {
    /// Round.
    pub round: u32,
    /// Table.
    pub table: u32,
    /// The card's name.
    pub card: String,
    /// Who declared it first there, and when.
    pub by: String,
    /// When (`HH:MM`).
    pub at: String,
    /// Its page, when the reference holds the card.
    pub page: Option<String>,
}

/// Every card declared in the event, round by round and table by table (voided notes left out).
pub fn declared(site: &Site) -> Result<Vec<Declared>> {
    let with_reference = reference::require(site.conn).is_ok();
    let mut out = Vec::new();
    // A player's name as the event holds it (the site's players hold every one; a lookup is a safeguard).
    let name = |p: PlayerId| match site.results.index_of(p).and_then(|i| site.results.players.get(i)) {
        Some(player) => Ok(player.name.clone()),
        None => Ok(crate::store::player::get(site.conn, p)?.name),
    };
    for r in 1..=site.results.paired {
        let mut by_match = notes::declared_in_round(site.conn, r, name)?;
        for m in site.round_matches(r).filter(|m| m.b.is_some() && m.table.is_some()) {
            for (card, prior) in by_match.remove(&m.id).unwrap_or_default() {
                let page = match with_reference {
                    true => reference::lookup(site.conn, &card)?.map(|c| file_of(&c.name)),
                    false => None,
                };
                let table = m.table.unwrap_or(0);
                out.push(Declared { round: r, table, card, by: prior.by, at: prior.at, page });
            }
        }
    }
    Ok(out)
}

/// `card-demonic-tutor.html`: the card's page file (letters and digits kept, the rest dashes).
pub fn file_of(name: &str) -> String {
    let folded = crate::domain::names::fold(name);
    let slug: Vec<&str> = folded.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
    format!("card-{}.html", slug.join("-"))
}

/// One face as shown.
struct FaceRow {
    name: String,
    cost: String,
    type_line: String,
    lines: Vec<String>,
    stats: String,
}

#[derive(Template)]
#[template(path = "site/card.html")]
struct CardPage {
    frame: Frame,
    cost: String,
    type_line: String,
    faces: Vec<FaceRow>,
    has_text: bool,
    status: String,
    mental_magic_rulings: Vec<String>,
    rulings: Vec<(String, String)>,
}

fn page_of(site: &Site, view: CardView, has_text: bool) -> Result<Page> {
    let status = crate::render::cards::status_words(&view.status);
    let faces = view
        .faces
        .iter()
        .map(|f| FaceRow {
            name: f.name.clone(),
            cost: f.mana_cost.clone().unwrap_or_else(|| "no cost".into()),
            type_line: f.type_line.clone(),
            lines: f.text.as_deref().unwrap_or("").lines().map(str::to_string).collect(),
            stats: match (&f.power, &f.toughness, &f.loyalty) {
                (Some(p), Some(t), _) => format!("{p}/{t}"),
                (_, _, Some(l)) => format!("loyalty {l}"),
                _ => String::new(),
            },
        })
        .collect();
    let mv = view.mana_value.map(|v| format!(" (mana value {v})")).unwrap_or_default();
    let page = CardPage {
        frame: site.frame(view.name.clone()),
        cost: format!("{}{mv}", view.mana_cost.clone().unwrap_or_else(|| "no cost".into())),
        type_line: view.type_line.clone(),
        has_text,
        faces,
        status,
        mental_magic_rulings: view.mental_magic_rulings.iter().map(|r| r.text.clone()).collect(),
        rulings: view.rulings.iter().map(|r| (r.date.clone(), r.text.clone())).collect(),
    };
    Ok(Page { file: file_of(&view.name), round: None, link: String::new(), html: render(&page)? })
}

/// A page for every card declared in the event (none without a card reference).
pub fn pages(site: &Site, out: &Pages) -> Result<()> {
    let has_text = cards::reference_has_text(site.conn)?;
    let mut done: Vec<String> = Vec::new();
    for d in declared(site)? {
        let Some(file) = d.page else { continue };
        if done.contains(&file) {
            continue;
        }
        done.push(file);
        if let Some(card) = reference::lookup(site.conn, &d.card)? {
            let at = u32::try_from(done.len()).unwrap_or(u32::MAX);
            out.put((CARDS, at), page_of(site, cards::view_of(site.conn, card, None, None)?, has_text)?)?;
        }
    }
    Ok(())
}
