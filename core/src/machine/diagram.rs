//! Drawing a machine as a Mermaid `stateDiagram-v2`.

use super::{Machine, PREVIOUS};

impl Machine {
    /// The machine as a Mermaid `stateDiagram-v2`. `"*"` sources are drawn from every state;
    /// `$previous` targets are drawn to every state that can lead into the source.
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
        for t in &self.transitions {
            let sources: Vec<&str> = match &t.from {
                Some(list) => list.iter().map(String::as_str).collect(),
                None => self.states.iter().map(|s| s.name.as_str()).collect(),
            };
            for source in sources {
                let targets: Vec<&str> = if t.to == PREVIOUS {
                    self.predecessors(source)
                } else {
                    vec![t.to.as_str()]
                };
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
                for target in targets {
                    if target != source {
                        lines.push(format!("    {source} --> {target}: {label}"));
                    }
                }
            }
        }
        for state in self.states.iter().filter(|s| s.terminal) {
            lines.push(format!("    {} --> [*]", state.name));
        }
        let mut text = lines.join("\n");
        text.push('\n');
        text
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
