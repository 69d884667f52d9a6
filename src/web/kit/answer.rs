//! The one answer of a write done: `{"ok": true, "summary": "...", ...}` with the outcome's fields, as the
//! command line's `--json` prints it.

use crate::error::{Error, Result};
use axum::Json;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// A write's JSON answer.
#[derive(Debug, Clone)]
pub struct Answer {
    doc: serde_json::Map<String, serde_json::Value>,
    /// Fields sent in this answer only, never kept with the write's key (a new player code: shown once).
    once: serde_json::Map<String, serde_json::Value>,
    /// Fields shown once and never kept with the write's key (a PIN, its login link and QR code).
    secret: Vec<String>,
}

impl Answer {
    /// `{"ok": true, "summary": summary}`.
    pub fn ok(summary: &str) -> Answer {
        let mut doc = serde_json::Map::new();
        doc.insert("ok".into(), serde_json::Value::Bool(true));
        doc.insert("summary".into(), serde_json::Value::String(summary.to_string()));
        Answer { doc, once: serde_json::Map::new(), secret: Vec::new() }
    }

    /// [`Answer::ok`] with every field of the outcome `out` (an outcome that is not a JSON object adds none).
    pub fn of<T: Serialize>(summary: &str, out: &T) -> Result<Answer> {
        Answer::ok(summary).with(out)
    }

    /// The summary, as answered.
    pub fn summary(&self) -> &str {
        self.doc.get("summary").and_then(|s| s.as_str()).unwrap_or_default()
    }

    /// Adds every field of `more` (a JSON object; its fields win over the same names already there).
    pub fn with<T: Serialize>(mut self, more: &T) -> Result<Answer> {
        let value = serde_json::to_value(more).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
        if let serde_json::Value::Object(fields) = value {
            self.doc.extend(fields);
        }
        Ok(self)
    }

    /// Adds `field` to this answer only: a repeat of the write (answered from what was kept) leaves it out.
    pub fn shown_once(mut self, field: &str, value: &str) -> Answer {
        self.once.insert(field.into(), serde_json::Value::String(value.into()));
        self
    }

    /// Adds every field of `more` as shown once: answered now, left out of what is kept for a repeat
    /// ([`Answer::kept`]), which says `"shown_once"` instead.
    pub fn with_secret<T: Serialize>(self, more: &T) -> Result<Answer> {
        let value = serde_json::to_value(more).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
        let names: Vec<String> = value.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
        let mut answer = self.with(&value)?;
        answer.secret.extend(names);
        Ok(answer)
    }

    /// The answer's JSON (without the fields of [`Answer::shown_once`]).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Object(self.doc.clone())
    }

    /// What is kept with the write's key for a repeat: the answer without its fields shown once, and a
    /// `"shown_once"` line saying what to do instead (they are stored nowhere in clear).
    pub fn kept(&self) -> serde_json::Value {
        let mut doc = self.doc.clone();
        if !self.secret.is_empty() {
            for name in &self.secret {
                doc.remove(name);
            }
            doc.insert(
                "shown_once".into(),
                serde_json::Value::String(format!(
                    "{} shown once only, with the first answer: make a new PIN to see one again",
                    self.secret.join(", ")
                )),
            );
        }
        serde_json::Value::Object(doc)
    }
}

impl IntoResponse for Answer {
    fn into_response(mut self) -> Response {
        self.doc.extend(self.once);
        Json(serde_json::Value::Object(self.doc)).into_response()
    }
}
