//! `machine`: the generic state-machine engine (`statecore::machine`): definitions, checks,
//! diagrams, legal events, firing (guards, `$previous`, automatic transitions).
//!
//! Input: `definition \0 instance \0 context \0 event \0 event ...`: three JSON texts (an
//! instance that is not `{"state", "previous"}` starts at the initial state; a context that
//! is not JSON is `null`) and up to 64 event names fired in turn. Laws:
//! - errors (malformed definitions, illegal events) have stable codes and pointer paths;
//!   `check` warnings are documented `W_` codes; the diagram is drawn without failing;
//! - an instance survives `to_value`/`from_value`;
//! - firing is deterministic, and `fire_field` agrees with `fire`;
//! - an event fires exactly when `events` lists it (except a `$previous` with no previous
//!   state, and `E_MACHINE` for automatic transitions that loop);
//! - an outcome is coherent: unchanged means the same instance and no steps; otherwise the
//!   steps form a chain from the old state to the new one, `previous` is the last step's
//!   source, and from an instance whose states are the machine's, every state reached is one
//!   of the machine's; every scheduled transition has a delay.

use crate::input::{self, split};
use crate::laws;
use crate::seeds::Case;
use statecore::machine::{Fired, Instance, Machine, PREVIOUS};
use statecore::Code;
use statecore::{Map, Value};

const MAX_EVENTS: usize = 64;

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let pieces = split(data, 4 + MAX_EVENTS);
    let Some(definition) = pieces.first().and_then(|p| input::json(p)) else {
        return;
    };
    let machine = match Machine::from_value(&definition) {
        Ok(machine) => machine,
        Err(e) => return laws::error("Machine::from_value", &e),
    };
    laws::report("Machine::check", &machine.check());
    let _ = machine.mermaid();
    let mut instance = pieces
        .get(1)
        .and_then(|p| input::json(p))
        .and_then(|v| Instance::from_value(&v).ok())
        .unwrap_or_else(|| Instance {
            state: machine.initial.clone(),
            previous: None,
        });
    let back = Instance::from_value(&instance.to_value());
    assert!(
        back.as_ref() == Ok(&instance),
        "Instance to_value/from_value: {back:?}"
    );
    let context = pieces
        .get(2)
        .and_then(|p| input::json(p))
        .unwrap_or(Value::Null);
    for event in pieces.iter().skip(3) {
        let event = String::from_utf8_lossy(event);
        if let Some(next) = fire(&machine, &instance, &event, &context) {
            instance = next;
        }
    }
}

fn is_state(machine: &Machine, name: &str) -> bool {
    machine.states.iter().any(|s| s.name == name)
}

/// Fires one event with every law checked; the new instance when it fired.
fn fire(machine: &Machine, instance: &Instance, event: &str, context: &Value) -> Option<Instance> {
    let legal = machine.events(&instance.state, context);
    let fired = machine.fire(instance, event, context);
    let again = machine.fire(instance, event, context);
    assert!(
        fired == again,
        "fire is not deterministic: {fired:?} vs {again:?}"
    );
    field_agrees(machine, instance, event, context, &fired);
    let listed = legal
        .as_ref()
        .ok()
        .and_then(|list| list.iter().find(|e| e.event == event));
    match &fired {
        Err(e) => {
            laws::error("Machine::fire", e);
            if let Some(info) = listed {
                let no_previous = info.to == PREVIOUS && instance.previous.is_none();
                assert!(
                    no_previous || e.code == Code::Machine,
                    "event {event:?} is listed by events() but fire refuses it: {e}"
                );
            }
            None
        }
        Ok(out) => {
            assert!(
                listed.is_some(),
                "event {event:?} fired but events() does not list it"
            );
            coherent(machine, instance, event, out);
            Some(out.instance.clone())
        }
    }
}

fn coherent(machine: &Machine, instance: &Instance, event: &str, out: &Fired) {
    if !out.changed {
        assert!(
            out.instance == *instance,
            "unchanged outcome with another instance"
        );
        assert!(
            out.steps.is_empty() && out.scheduled.is_empty(),
            "unchanged outcome with steps"
        );
        return;
    }
    let first = out.steps.first();
    assert!(
        first.is_some_and(|s| s.from == instance.state && s.event == event),
        "the first step is not the event from the old state: {:?}",
        out.steps
    );
    for pair in out.steps.windows(2) {
        if let [a, b] = pair {
            assert!(a.to == b.from, "steps do not chain: {:?}", out.steps);
        }
    }
    let last = out.steps.last();
    assert!(
        last.is_some_and(|s| s.to == out.instance.state),
        "the last step does not end in the new state: {:?}",
        out
    );
    assert!(
        out.instance.previous.as_deref() == last.map(|s| s.from.as_str()),
        "previous is not the last step's source: {out:?}"
    );
    // The instance's state was checked by `fire`, and `$previous` is refused when it names no
    // state: every step ends in a state of the machine.
    for step in &out.steps {
        assert!(is_state(machine, &step.to), "step to a non-state: {step:?}");
    }
    for s in &out.scheduled {
        assert!(
            s.after_ms > 0,
            "a scheduled transition without a delay: {s:?}"
        );
    }
    let value = out.to_value();
    assert!(
        value.get("state") == Some(&Value::from(out.instance.state.as_str())),
        "to_value"
    );
}

/// `fire_field` on `{"status": state}` gives the state `fire` reaches from no previous.
fn field_agrees(
    machine: &Machine,
    instance: &Instance,
    event: &str,
    context: &Value,
    fired: &statecore::Result<Fired>,
) {
    if instance.previous.is_some() {
        return;
    }
    let mut object = Map::new();
    object.insert("status".into(), instance.state.clone().into());
    let got = machine.fire_field(
        &mut object,
        "status",
        &machine.initial,
        event,
        context,
        "/x",
    );
    match (fired, got) {
        (Ok(f), Ok(state)) => {
            assert!(
                state == f.instance.state,
                "fire_field gives {state}, fire {f:?}"
            );
            assert!(
                object.get("status") == Some(&Value::from(state)),
                "fire_field's field"
            );
        }
        (Err(a), Err(b)) => {
            assert!(
                a.code == b.code && b.path == "/x",
                "fire_field's error {b} vs {a}"
            )
        }
        (a, b) => panic!("fire and fire_field disagree: {a:?} vs {b:?}"),
    }
}

/// Seeds from one conformance case of the machine operations, and from every built-in
/// machine (an operation that returns a definition), with its events fired in order.
pub fn seeds(case: &Case, out: &mut Vec<Vec<u8>>) {
    let a = |i: usize| case.args.get(i).cloned().unwrap_or(Value::Null);
    let t = |v: &Value| input::text(v);
    match case.op.as_str() {
        "machine_check" | "machine_diagram" => out.push(t(&a(0))),
        "machine_events" => {
            let instance = statecore::json!({"state": a(1)});
            out.push(input::join([t(&a(0)), t(&instance), t(&a(2))]));
        }
        "machine_fire" => {
            let event = a(2).as_str().unwrap_or_default().as_bytes().to_vec();
            out.push(input::join([t(&a(0)), t(&a(1)), t(&a(3)), event]));
        }
        _ => {}
    }
}

/// A seed that fires every event of `definition` (in transition order) from its initial
/// state: the built-in machines, so the protocols' lifecycles are the starting points.
pub fn definition_seed(definition: &Value) -> Option<Vec<u8>> {
    let transitions = definition.get("transitions")?.as_array()?;
    let mut pieces = vec![input::text(definition), Vec::new(), b"{}".to_vec()];
    for t in transitions.iter().take(MAX_EVENTS) {
        pieces.push(t.get("event")?.as_str()?.as_bytes().to_vec());
    }
    Some(input::join(pieces))
}
