//! `rules [QUERY]`: the rules mmjudge applies, with their ids.

use super::Ctx;
use crate::cli::cards::RulesArgs;
use crate::domain::rules;
use crate::error::{Error, Result};
use crate::render::{Listing, emit};

/// Lists every rule, one by id, or those matching words.
pub fn run(ctx: &Ctx, args: &RulesArgs) -> Result<()> {
    let query = args.query.join(" ");
    let found = rules::search(&query);
    if found.is_empty() {
        return Err(Error::not_found(format!(
            "no rule matches \"{query}\": `mmjudge rules` lists them all (ids like MM.3e, BV.alphabet, TR.challenges)"
        )));
    }
    let title = match query.trim() {
        "" => "The rules mmjudge applies".to_string(),
        q => format!("Rules matching \"{q}\""),
    };
    let mut listing = Listing::new(&["id", "rule", "what it says", "from"]).titled(title);
    for r in &found {
        listing.row(vec![r.id.clone(), r.title.clone(), r.text.clone(), r.source.clone()]);
    }
    emit(ctx.format, &listing, &serde_json::json!({ "query": query, "rules": found }))
}
