//! `library list` and `library show`: every library's shape, one library's cards sorted by cost.

use super::{Ctx, balance_listing};
use crate::domain::library::BUCKETS;
use crate::error::Result;
use crate::ops::library::show::{self as view, ShownCard};
use crate::render::{Listing, emit};

pub fn list(ctx: &Ctx) -> Result<()> {
    let store = ctx.open()?;
    let view::LibraryList { lines, worst, locked, target_curve } = crate::ops::views::libraries(&store)?;
    let mut listing = balance_listing(&lines);
    listing.title = Some(crate::domain::words::count(lines.len(), "library"));
    if let Some((t, d)) = worst {
        listing.footer.push(format!("worst pair: table {t} ({d:.0} cards apart)"));
    }
    if lines.is_empty() {
        listing.footer =
            vec!["no libraries yet: `mmjudge library build --tables N` (or `library register` when sealed)".into()];
    }
    let doc = serde_json::json!({
        "libraries": lines,
        "worst_pair": worst.map(|(table, distance)| serde_json::json!({ "table": table, "distance": distance })),
        "locked": locked,
        "target_curve": target_curve,
    });
    emit(ctx.format, &listing, &doc)
}

pub fn show(ctx: &Ctx, text: &str) -> Result<()> {
    let store = ctx.open()?;
    let view::LibraryView { library: lib, name, player, cards: shown, balance: line } =
        crate::ops::views::library(&store, text)?;
    let main: Vec<&ShownCard> = shown.iter().filter(|c| !c.sideboard).collect();
    let whereabouts = match (lib.table, &lib.seat) {
        (Some(t), Some(s)) => format!("table {t}, seat {s}"),
        _ => "sealed, travels with its player".into(),
    };
    let mut listing = Listing::new(&["#", "cost", "card", "type"]).titled(format!(
        "Library {name} ({whereabouts}): {} cards, Utopia {} basic lands",
        main.len(),
        lib.utopia
    ));
    for (i, c) in shown.iter().enumerate() {
        let n = if c.sideboard { "sb".to_string() } else { (i + 1).to_string() };
        listing.row(vec![n, c.mana_cost.clone().unwrap_or_default(), c.name.clone(), c.type_line.clone()]);
    }
    if let Some(l) = &line {
        let slash = |v: &[u32; BUCKETS]| v.iter().map(u32::to_string).collect::<Vec<_>>().join("/");
        listing.footer.push(format!(
            "curve 0/1/2/3/4/5/6+: {}; colours W/U/B/R/G/multi/none: {}; off profile {:.1}{}",
            slash(&l.curve),
            slash(&l.colors),
            l.distance_from_mean,
            l.pair_distance.map(|d| format!("; {d:.0} cards apart from its partner")).unwrap_or_default()
        ));
    }
    let doc = serde_json::json!({
        "library": name, "table": lib.table, "seat": lib.seat, "player": player,
        "utopia": lib.utopia, "cards": shown, "balance": line,
    });
    emit(ctx.format, &listing, &doc)
}
