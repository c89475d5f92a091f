"""A Python agent: reports progress in the shared runner status, one locked update per step."""

import sys
import time

import statecore

path, name, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])


def step(i: int):
    def apply(doc):
        doc = doc or {
            "schema_version": "1.0",
            "questions": [],
            "blockers": [],
            "risks": [],
        }
        progress = doc.setdefault("x-progress", {})
        progress[name] = progress.get(name, 0) + 1
        doc["status"] = "working"
        doc["summary"] = f"{name}: step {i + 1} of {steps}"
        doc["updated_at"] = statecore.format_timestamp(int(time.time() * 1000))
        return doc

    return apply


for i in range(steps):
    statecore.update_document(path, "agency.runner_status", step(i))
