//! One page per declared card (`card-NAME.html`), linked from the judging page: what `cards show` says about
//! it (cost, type, the text of each face, P/T or loyalty, rulings, Mental Magic status and rulings).

use super::{Event, Frame, Page, render};
use crate::error::Result;
use crate::ops::cards::CardView;
use crate::ops::site::card_file;
use askama::Template;

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

/// A declared card's page: what `cards show` says about it.
pub fn page(site: &Event, view: CardView, has_text: bool) -> Result<Page> {
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
    Ok(Page { file: card_file(&view.name), round: None, link: String::new(), html: render(&page)? })
}
