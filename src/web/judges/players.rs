//! A head judge's players from the phone: late entries, drops and undrops, renames, removing a player entered
//! by mistake, a lost code replaced and a player who stays at one table, each as its command (`mmjudge player ...`) through the same `ops`
//! action. The page that offers them is [`super::roster`].

use crate::error::Error;
use crate::ops::players::{self, NewRow, RemoveInput, RenameInput, SeatInput};
use crate::web::kit::auth::Judge;
use crate::web::kit::extract::Payload;
use crate::web::kit::request::Answer;
use crate::web::kit::write;
use axum::response::Response;

/// Names as sent: a JSON list, or a form's text with one name a line.
#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
pub enum Names {
    /// `["Ana", "Bo"]`.
    List(Vec<String>),
    /// "Ana\nBo" (a form's text box).
    Lines(String),
}

impl Names {
    fn rows(self) -> Vec<NewRow> {
        let names = match self {
            Names::List(l) => l,
            Names::Lines(text) => text.lines().map(str::to_string).filter(|l| !l.trim().is_empty()).collect(),
        };
        names.into_iter().map(|name| NewRow { name, ext_id: None, email: None }).collect()
    }
}

/// `POST /api/player/add` body: `{"names": [...]}`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddBody {
    /// The players' names.
    pub names: Names,
}

/// `POST /api/player/add` (head judges): adds players, as `mmjudge player add NAME...`; after round 1 is paired
/// the answer says the late-entry rule (the round they join from and what the rounds missed count as).
pub async fn add(judge: Judge, p: Payload<AddBody>) -> Response {
    write::judge(judge, Some("adding players"), p, |store, actor, b| {
        let rows = b.names.rows();
        if rows.is_empty() {
            return Err(Error::bad_input("names: give at least one player's name"));
        }
        let out = players::add_players(store, actor, &rows)?;
        let doc = serde_json::json!({ "added": out.added, "names": out.names, "joining": out.joining_web });
        Answer::ok(&players::added_words(&out, true)).with(&doc)
    })
    .await
}

/// A body naming one player: `{"name"}`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameBody {
    /// The player (any unambiguous part of the name).
    pub name: String,
}

/// `POST /api/player/drop` (head judges): drops a player from the next round on, as `mmjudge player drop`.
pub async fn drop(judge: Judge, p: Payload<NameBody>) -> Response {
    write::judge(judge, Some("dropping a player"), p, |store, actor, b| {
        let out = players::drop_player(store, actor, &b.name)?;
        Answer::of(&players::dropped_words(&out), &out)
    })
    .await
}

/// `POST /api/player/undrop` (head judges): takes a drop back, as `mmjudge player undrop`.
pub async fn undrop(judge: Judge, p: Payload<NameBody>) -> Response {
    write::judge(judge, Some("undropping a player"), p, |store, actor, b| {
        let out = players::undrop_player(store, actor, &b.name)?;
        Answer::of(&players::dropped_words(&out), &out)
    })
    .await
}

/// `POST /api/player/rename` body: `{"name","to"}`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenameBody {
    /// The player as now named.
    pub name: String,
    /// The corrected name.
    pub to: String,
}

/// `POST /api/player/rename` (head judges): corrects a player's name, as `mmjudge player rename`.
pub async fn rename(judge: Judge, p: Payload<RenameBody>) -> Response {
    write::judge(judge, Some("renaming a player"), p, |store, actor, b| {
        let out = players::rename_player(store, actor, RenameInput { player: b.name, new: b.to })?;
        Answer::of(&format!("renamed \"{}\" to \"{}\"", out.old, out.new), &out)
    })
    .await
}

/// `POST /api/player/remove` (head judges): deletes a player entered by mistake who has played nothing, as
/// `mmjudge player remove`.
pub async fn remove(judge: Judge, p: Payload<NameBody>) -> Response {
    write::judge(judge, Some("removing a player"), p, |store, actor, b| {
        let player = crate::ops::views::player(store, &b.name)?;
        let out = players::remove_player(store, actor, RemoveInput { player: player.id })?;
        let with = if out.library_removed { ", with the sealed library registered for them" } else { "" };
        Answer::of(&format!("removed {} from the event{with}", out.name), &out)
    })
    .await
}

/// `POST /api/player/code/new` body: `{"name", "new": true}` (`new` may be left out; false is refused).
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewCodeBody {
    /// The player.
    pub name: String,
    /// As the command line's `--new`.
    pub new: Option<bool>,
}

/// `POST /api/player/code/new` (head judges): replaces a lost code, as `mmjudge player code NAME --new`. The
/// new code is in this answer only (`"code"`): what is kept with the write's key, and the page's banner, hold
/// no code, so a repeat says to make another.
pub async fn new_code(judge: Judge, p: Payload<NewCodeBody>) -> Response {
    write::judge(judge, Some("replacing a player's code"), p, |store, actor, b| {
        if b.new == Some(false) {
            return Err(Error::bad_input(
                "new: this replaces a player's code (send true, or leave it out); the codes print page shows them",
            ));
        }
        let out = players::codes::renew_code(store, actor, &b.name)?;
        let summary = format!(
            "new code for {} made and shown once (the old one no longer works; if it was not noted, make another)",
            out.player.name
        );
        let doc = serde_json::json!({ "player": out.player.id, "name": out.player.name });
        Ok(Answer::ok(&summary).with(&doc)?.shown_once("code", &out.player.code))
    })
    .await
}

/// `POST /api/player/seat` body: `{"name", "table": 3}`; `"table": null` (or a form's empty field) ends the stay.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatBody {
    /// The player (any unambiguous part of the name).
    pub name: String,
    /// The table the player stays at every round; null (a form's empty field): they move with the others again.
    /// Required: a body that leaves it out ends nobody's stay by accident.
    #[serde(deserialize_with = "optional_table")]
    pub table: Option<u32>,
}

/// A table as a JSON number or null, or a form's text (an empty field is none).
fn optional_table<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<u32>, D::Error> {
    crate::web::kit::body::count_or_none(d, |t| format!("table takes a table's number (1, 2, ...), not \"{t}\""))
}

/// `POST /api/player/seat` (head judges): keeps a player at one table every round (a player who cannot move),
/// or with no table lets them move again, as `mmjudge player seat NAME --table N` / `--clear`.
pub async fn seat(judge: Judge, p: Payload<SeatBody>) -> Response {
    write::judge(judge, Some("keeping a player at one table"), p, |store, actor, b| {
        let out = players::seat_player(store, actor, SeatInput { player: b.name, table: b.table })?;
        Answer::of(&players::seated_words(&out), &out)
    })
    .await
}
