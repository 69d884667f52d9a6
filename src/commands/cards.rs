//! `cards`: import the reference, find names, list a cost's binding class, check a declaration: parse,
//! call `ops::cards`, render.

use super::Ctx;
use crate::cli::cards::{CardsCmd, PrintedArgs};
use crate::error::{Error, Result};
use crate::ops::cards::{self as ops, FindInput, Found, ImportInput, Imported, PrintedInput};
use crate::render::records::cost_text;
use crate::render::{Listing, done, emit};
use crate::store::cards::Card;
use std::path::Path;

/// Runs a `cards` verb about the reference itself (import, find by name, cost classes, checks); hands back
/// the verbs about card texts and rulings (`cards show`, `cards find --text`, `cards import-rulings`), which
/// `card_show` runs.
pub fn run(ctx: &Ctx, cmd: CardsCmd) -> Result<Option<CardsCmd>> {
    match cmd {
        CardsCmd::Import { file, replace, force } => import(ctx, &file, replace, force)?,
        CardsCmd::Find { name: Some(text), words: None, limit, .. } => find(ctx, &text, limit)?,
        CardsCmd::Cost { printed: p } => cost_class(ctx, &printed_input(&p))?,
        CardsCmd::Check { printed: p, name } => check(ctx, &printed_input(&p), &name)?,
        other => return Ok(Some(other)),
    }
    Ok(None)
}

fn printed_input(p: &PrintedArgs) -> PrintedInput {
    PrintedInput { cost: p.cost.clone(), letter: p.letter, table: p.table, round: p.round }
}

fn import(ctx: &Ctx, file: &Path, replace: bool, force: bool) -> Result<()> {
    let mut store = ctx.open()?;
    let bytes = std::fs::read(file).map_err(|e| Error::io(file, e))?;
    let shown = file.display().to_string();
    let bar = progress_bar(bytes.len());
    let actor = ctx.actor()?;
    let input = ImportInput { bytes: &bytes, shown: &shown, replace, force };
    let outcome = ops::import(&mut store, &actor, input, &mut |phase, pos, len| {
        if let Some(b) = &bar {
            b.set_message(match phase {
                ops::Phase::Reading => "reading the file",
                ops::Phase::Storing => "storing cards",
            });
            b.set_length(len);
            b.set_position(pos);
        }
    })?;
    drop(bytes);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    done(ctx.format, &import_summary(&outcome, &shown, replace), serde_json::to_value(&outcome).unwrap_or_default())
}

/// The one line `cards import` answers with.
fn import_summary(outcome: &Imported, shown: &str, replace: bool) -> String {
    crate::render::imports::cards_imported(outcome, shown, replace, crate::render::imports::Said::CommandLine)
}

/// A progress bar on standard error for large files when a person is watching.
fn progress_bar(bytes: usize) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if bytes < 1_000_000 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(0);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{msg:16} {bar:40} {pos}/{len}") {
        bar.set_style(style);
    }
    Some(bar)
}

fn find(ctx: &Ctx, text: &str, limit: usize) -> Result<()> {
    let store = ctx.open()?;
    let input = FindInput { name: Some(text.to_string()), limit, ..Default::default() };
    let Found::ByName { cards, .. } = crate::ops::views::find_cards(&store, input)? else {
        return Err(Error::bad_input("give part of a card name: mmjudge cards find \"demonic tutor\""));
    };
    let mut listing = Listing::new(&["card", "cost", "type"]).titled(format!("Cards matching \"{text}\""));
    let mut doc = Vec::new();
    for hit in &cards {
        let card = &hit.card;
        listing.row(vec![card.name.clone(), cost_text(card), card.type_line.clone()]);
        doc.push(serde_json::json!({
            "name": card.name, "mana_cost": card.mana_cost, "type_line": card.type_line,
            "kinds": card.kinds, "score": (hit.score * 1000.0).round() / 1000.0,
        }));
    }
    emit(ctx.format, &listing, &serde_json::json!({ "query": text, "cards": doc }))
}

fn cost_class(ctx: &Ctx, input: &PrintedInput) -> Result<()> {
    let store = ctx.open()?;
    let out = crate::ops::views::cost_class(&store, input)?;
    let (printed, class, seated) = (&out.printed, &out.class, &out.seated);
    let mut listing = Listing::new(&["card", "cost", "type"]).titled(format!(
        "{} may {}be declared as {} card{} under {} binding{}",
        if printed.is_land {
            "A printed land card".to_string()
        } else {
            format!("{} ({})", printed.canonical(), printed.shorthand())
        },
        if seated.is_some() { "still " } else { "" },
        class.cards.len(),
        if class.cards.len() == 1 { "" } else { "s" },
        out.binding,
        seated.as_ref().map(|s| format!(" at {}", s.label())).unwrap_or_default()
    ));
    for c in &class.cards {
        listing.row(vec![c.name.clone(), cost_text(c), c.type_line.clone()]);
    }
    let names_of = |v: &[Card]| v.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    if !class.banned.is_empty() {
        listing.footer.push(format!("banned, left out: {}", names_of(&class.banned).join(", ")));
    }
    if !class.excluded.is_empty() {
        listing.footer.push(format!("excluded kinds, left out: {}", names_of(&class.excluded).join(", ")));
    }
    if let Some(s) = seated {
        let list: Vec<String> = out.declared.iter().map(|(n, p)| format!("{n} ({} {})", p.by, p.at)).collect();
        listing.footer.push(match list.is_empty() {
            true => format!("none of these was declared yet at {}", s.label()),
            false => format!("already declared at {}, left out: {}", s.label(), list.join(", ")),
        });
    }
    let mut doc = serde_json::json!({
        "cost": printed.canonical(), "shorthand": printed.shorthand(), "binding": out.binding,
        "count": class.cards.len(),
        "cards": class.cards.iter().map(|c| serde_json::json!({"name": c.name, "mana_cost": c.mana_cost, "type_line": c.type_line})).collect::<Vec<_>>(),
        "banned": names_of(&class.banned), "excluded": names_of(&class.excluded),
    });
    if let (Some(s), Some(map)) = (seated, doc.as_object_mut()) {
        map.insert("round".into(), s.m.round.into());
        map.insert("table".into(), s.table().into());
        let gone = out.declared.iter().map(|(n, p)| serde_json::json!({ "name": n, "by": p.by, "at": p.at }));
        map.insert("declared".into(), gone.collect::<Vec<_>>().into());
    }
    emit(ctx.format, &listing, &doc)
}

fn check(ctx: &Ctx, input: &PrintedInput, name: &str) -> Result<()> {
    let store = ctx.open()?;
    let ok = crate::ops::views::check_card(&store, input, name)?;
    done(
        ctx.format,
        &format!(
            "legal{}: {}{} ({}) may be declared for {}",
            ok.seated.as_ref().map(|s| format!(" at {}", s.label())).unwrap_or_default(),
            ok.card.name,
            ok.taken.as_ref().map(|t| format!(" ({t})")).unwrap_or_default(),
            cost_text(&ok.card),
            if ok.printed.is_land {
                "a printed land card".to_string()
            } else {
                format!("a card costing {}", ok.printed.canonical())
            }
        ),
        serde_json::json!({ "legal": true, "card": ok.card.name, "typed": ok.typed, "taken": ok.taken }),
    )
}
