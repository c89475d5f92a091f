"""A Hivemind agent for the demo (examples/hivemind_demo.mjs): writes one trigger file.

Usage: python hivemind_agent.py PROJECT AGENT FILE [CONTENT]

FILE is relative to PROJECT/workspace (``plan.md``, ``friction/slow-tests.md``, ...); the file is
written with a plain ``open()``/``write()``, as any agent or editor would. The agent does not
touch ``workspace/state.json``: the watcher of the Node host reacts to the file and moves the
workflow. Before writing, it reads the state (``statecore.hivemind.read_state``) and prints one
line saying what it writes and its mode in the current state (active, reading, idle).
"""

import os
import sys

from statecore import hivemind

project, agent, file = sys.argv[1], sys.argv[2], sys.argv[3]
content = sys.argv[4] if len(sys.argv) > 4 else f"written by {agent}\n"

parts = file.replace("\\", "/").split("/")
if file.startswith("/") or ".." in parts or not file.endswith(".md"):
    sys.exit(f"hivemind_agent.py: {file!r} is not a .md file under workspace/")

state = hivemind.read_state(project)["document"]["state"]
mode = hivemind.agents(state)[agent]  # KeyError for an unknown agent
target = os.path.join(project, "workspace", *parts)
os.makedirs(os.path.dirname(target), exist_ok=True)
with open(target, "w", encoding="utf-8") as f:
    f.write(content)
print(f"{agent} ({mode} in {state}) writes workspace/{'/'.join(parts)}")
