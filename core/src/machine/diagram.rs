//! Drawing a machine as a Mermaid `stateDiagram-v2`.

use super::{Machine, Transition, PREVIOUS};

/// A transition from this many states or more (or from `"*"`) is an event that applies
/// "from any state": drawn once, as a note beside its target, not as one edge per source.
const BROAD: usize = 7;

/// The longest line of a note, in characters (longer lists of states wrap).
const NOTE_WIDTH: usize = 44;

impl Machine {
    /// The machine as a Mermaid `stateDiagram-v2`. A transition from [`BROAD`] states or more
    /// (or from `"*"`) is written once, in a note beside its target that names its sources;
    /// a `$previous` transition out of a state entered only that way is a line of the same
    /// note ("back to the state it came from"). Other `$previous` targets are drawn to every
    /// state that can lead into the source.
    pub fn mermaid(&self) -> String {
        let mut lines = vec![
            "stateDiagram-v2".to_owned(),
            format!("    [*] --> {}", self.initial),
        ];
        for state in &self.states {
            if let Some(description) = &state.description {
                lines.push(format!(
                    "    {}: {}",
                    state.name,
                    description.replace('\n', " ")
                ));
            }
        }
        // The notes, by target state, in the order their states were first met.
        let mut notes: Vec<(&str, Vec<String>)> = Vec::new();
        let mut note = |state: &'_ str, text: Vec<String>| {
            let at = notes.iter().position(|(s, _)| *s == state);
            match at.and_then(|i| notes.get_mut(i)) {
                Some((_, lines)) => lines.extend(text),
                None => notes.push((self.state_name(state), text)),
            }
        };
        for t in &self.transitions {
            let label = Self::label(t);
            if self.broad(t) {
                let sources = self.sources_text(t);
                note(&t.to, wrap(&format!("{label}: from {sources}")));
                continue;
            }
            let sources: Vec<&str> = match &t.from {
                Some(list) => list.iter().map(String::as_str).collect(),
                None => self.states.iter().map(|s| s.name.as_str()).collect(),
            };
            for source in sources {
                if t.to == PREVIOUS && self.entered_broadly(source) {
                    note(source, wrap(&format!("{label}: to the state it came from")));
                    continue;
                }
                let targets: Vec<&str> = if t.to == PREVIOUS {
                    self.predecessors(source)
                } else {
                    vec![t.to.as_str()]
                };
                for target in targets {
                    if target != source {
                        lines.push(format!("    {source} --> {target}: {label}"));
                    }
                }
            }
        }
        for (state, text) in notes {
            lines.push(format!("    note right of {state}"));
            lines.extend(text.into_iter().map(|line| format!("        {line}")));
            lines.push("    end note".to_owned());
        }
        for state in self.states.iter().filter(|s| s.terminal) {
            lines.push(format!("    {} --> [*]", state.name));
        }
        let mut text = lines.join("\n");
        text.push('\n');
        text
    }

    /// The label of a transition's edge: its event, `(auto after N ms)`, `(back)`.
    fn label(t: &Transition) -> String {
        let mut label = t.event.clone();
        if t.auto {
            label.push_str(&if t.after_ms > 0 {
                format!(" (auto after {} ms)", t.after_ms)
            } else {
                " (auto)".to_owned()
            });
        }
        if t.to == PREVIOUS {
            label.push_str(" (back)");
        }
        label
    }

    /// True for a transition drawn as a note: not automatic, not to `$previous` (it has no
    /// one target to stand beside), from `"*"` or from [`BROAD`] states or more besides its
    /// target.
    fn broad(&self, t: &Transition) -> bool {
        !t.auto
            && t.to != PREVIOUS
            && match &t.from {
                None => self.states.len() > BROAD,
                Some(list) => list.iter().filter(|s| **s != t.to).count() >= BROAD,
            }
    }

    /// The sources of a broad transition in words: `any state`, `every state but a, b`, or
    /// their list, whichever is shorter (its target left out).
    fn sources_text(&self, t: &Transition) -> String {
        let Some(list) = &t.from else {
            return "any state".to_owned();
        };
        let sources: Vec<&str> = list
            .iter()
            .filter(|s| **s != t.to)
            .map(String::as_str)
            .collect();
        let others: Vec<&str> = self
            .states
            .iter()
            .map(|s| s.name.as_str())
            .filter(|s| *s != t.to && !sources.contains(s))
            .collect();
        if others.is_empty() {
            "any state".to_owned()
        } else if others.len() < sources.len() {
            format!("every state but {}", others.join(", "))
        } else {
            sources.join(", ")
        }
    }

    /// True when every transition into `state` is [`Self::broad`] (and there is one).
    fn entered_broadly(&self, state: &str) -> bool {
        let mut into = self.transitions.iter().filter(|t| t.to == state).peekable();
        into.peek().is_some() && into.all(|t| self.broad(t))
    }

    /// `name` as the machine's own `&str` (for the notes' keys).
    fn state_name<'a>(&'a self, name: &str) -> &'a str {
        self.states
            .iter()
            .find(|s| s.name == name)
            .map_or("", |s| s.name.as_str())
    }

    fn predecessors(&self, state: &str) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for s in &self.states {
            let leads_in = self
                .transitions
                .iter()
                .any(|t| t.to == state && t.to != s.name && Self::from_matches(t, &s.name));
            if leads_in && !out.contains(&s.name.as_str()) {
                out.push(&s.name);
            }
        }
        out
    }
}

/// `text` in lines of at most [`NOTE_WIDTH`] characters, broken after a comma or a space.
fn wrap(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let fits = line.chars().count().saturating_add(word.chars().count()) < NOTE_WIDTH;
        if !line.is_empty() && !fits {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
