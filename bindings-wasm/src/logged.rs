//! Logged files (feature `full`): a hive session's step in one crossing (`update_logged`)
//! and the `LogReplay` class a host feeds the log with when the state is behind it
//! (docs/hive.md § Files). Both convert and map errors only.

use crate::{out, single_arg, throw};
use statecore::ops::{self, Args, Change, Form, Out};
use statecore_cli::TABLE;
use wasm_bindgen::prelude::*;

/// The step `change` (`""`: a read) with its arguments (the JSON text of the array after the
/// state; a bytes parameter takes `slot`) as the core reads them.
fn change<'a>(
    name: &str,
    args: &str,
    slot: Option<Vec<u8>>,
) -> Result<Option<Change<'a>>, JsValue> {
    if name.is_empty() {
        return Ok(None);
    }
    let (params, skip) = TABLE.params_of(name).map_err(throw)?;
    let slots = [slot.map(std::borrow::Cow::Owned), None].into_iter();
    let args = Args::from_wire(params, skip, args, slots).map_err(throw)?;
    TABLE.logged_change(name, args).map_err(throw)
}

/// A byte offset or size from JS: a whole number ≥ 0.
fn offset(value: f64) -> Result<u64, JsValue> {
    if value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= 9_007_199_254_740_991.0
    {
        Ok(value as u64)
    } else {
        Err(throw(statecore::Error::new(
            statecore::error::Code::Argument,
            "",
            format!("{value} is not a byte offset (a whole number ≥ 0)"),
        )))
    }
}

/// A step of `kind`'s file kept with its log, or a read (`change` `""`): `data` the state's
/// bytes (none: missing), `log_size` the log's length, `session_id` the directory's name.
/// `event_id`: the step's unique id (the host's random bytes). Returns like `update` (the
/// fields, a newline, the state's text).
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)] // flat scalars cross the boundary without an object
pub fn update_logged(
    kind: &str,
    session_id: &str,
    change_name: &str,
    data: Option<Vec<u8>>,
    log_size: f64,
    args: &str,
    slot: Option<Vec<u8>>,
    now: &str,
    event_id: Option<String>,
) -> Result<String, JsValue> {
    let change = change(change_name, args, slot)?;
    let now = single_arg(now)?;
    let result = ops::update_logged(
        kind,
        session_id,
        data.as_deref(),
        offset(log_size)?,
        change,
        &now,
        event_id.as_deref(),
    );
    out(result.map(|v| Out::update(kind, v)), Form::Update)
}

/// A replay of a session's log, fed by the host, then committed with a step or a read.
#[wasm_bindgen]
pub struct LogReplay {
    replay: Option<ops::LogReplay>,
    kind: String,
}

#[wasm_bindgen]
impl LogReplay {
    /// A replay of `kind`'s log from `offset` onto the state in `data` (none, or `corrupt`:
    /// from nothing).
    #[wasm_bindgen(constructor)]
    pub fn new(
        kind: &str,
        session_id: &str,
        data: Option<Vec<u8>>,
        offset_: f64,
        corrupt: bool,
    ) -> Result<LogReplay, JsValue> {
        let replay =
            ops::LogReplay::new(kind, session_id, data.as_deref(), offset(offset_)?, corrupt)
                .map_err(throw)?;
        Ok(LogReplay {
            replay: Some(replay),
            kind: kind.to_owned(),
        })
    }

    /// Feeds the next bytes of the log.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), JsValue> {
        self.inner()?.feed(chunk).map_err(throw)
    }

    /// Ends the replay and takes the step (`""`: a read); returns like `update_logged`. The
    /// replay is used up.
    pub fn commit(
        &mut self,
        change_name: &str,
        args: &str,
        slot: Option<Vec<u8>>,
        now: &str,
        event_id: Option<String>,
    ) -> Result<String, JsValue> {
        let replay = self.replay.take().ok_or_else(used)?;
        let change = change(change_name, args, slot)?;
        let now = single_arg(now)?;
        let kind = self.kind.clone();
        out(
            replay
                .commit(change, &now, event_id.as_deref())
                .map(|v| Out::update(&kind, v)),
            Form::Update,
        )
    }

    fn inner(&mut self) -> Result<&mut ops::LogReplay, JsValue> {
        self.replay.as_mut().ok_or_else(used)
    }
}

fn used() -> JsValue {
    throw(statecore::Error::new(
        statecore::error::Code::Argument,
        "",
        "this replay was committed already: make a new one",
    ))
}
