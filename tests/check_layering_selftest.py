#!/usr/bin/env python3
"""Self-test of tests/check_layering.py, so that the layering check cannot pass vacuously.

Builds a small source tree with one deliberate violation per rule, next to includes that every
rule allows (and includes hidden in comments), runs the check on it and expects exit 1 with
exactly the expected "file:line: ... [rule]" lines; then removes the violations and expects
exit 0 with the summary line.
"""

import importlib.util
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "check_layering.py")

# Files that break one rule each: path -> (text, line of the violation, rule).
VIOLATIONS = {
    "model/import/bad_ui.cc": ('#include "model/import/ok.h"\n#include "views/trace_view.h"\n', 2, "model-no-ui"),
    "model/query/bad_qt.h": ("#pragma once\n#include <vector>\n#include <QString>\n", 3, "model-no-qt"),
    "views/bad_app.cc": ('#include "views/ok.h"\n\n#include "app/gui/main_window.h"\n', 3, "views-no-app"),
    "model/trace/bad_leaf.h": ('#pragma once\n#include "model/query/track_order.h"\n', 2, "trace-leaf"),
    "model/analysis/bad_import.cc": ('#include "model/import/producer.h"\n', 1, "analysis-no-import"),
    "views/tables/bad_import.cc": ('// A view\n#include "model/import/memory_budget.h"\n', 2, "views-no-import"),
    "model/capture/agent/bad_import.cc": ('#include "model/import/json_text.h"\n', 1, "capture-no-import"),
    "model/analysis/bad_results.h": ('#pragma once\n  #  include "model/results/result_store.h"\n', 2,
                                     "results-on-top"),
    "app/cupti_agent/bad_agent.cc": ('#include <cupti.h>\n#include "model/trace/trace.h"\n', 2, "agent-libc-only"),
    "app/gui/bad_canvas.cc": ('#include "views/timeline/timeline_view.h"\n#include "views/timeline/timeline_canvas.h"\n', 2,
                              "canvas-private"),
}

# Files that break nothing.
CLEAN = {
    "model/trace/trace.h": "#pragma once\n#include <cstdint>\n#include \"model/trace/types.h\"\n",
    "model/trace/types.h": "#pragma once\n",
    "model/import/ok.h": '#pragma once\n#include "model/trace/trace.h"\n#include "model/capture/agent/agent_records.h"\n',
    "model/query/track_order.h": '#pragma once\n#include "model/trace/trace.h"\n',
    "model/analysis/ok.cc": ('#include "model/query/track_order.h"\n'
                             '// #include "model/import/producer.h"\n'
                             '/* #include <QString>\n'
                             '   #include "views/trace_view.h" */\n'
                             '#include <queue>\n'),
    "model/results/result_store.h": '#pragma once\n#include "model/import/ok.h"\n#include "model/analysis/ok.h"\n',
    "model/capture/agent/agent_records.h": "#pragma once\n#include <stdint.h>\n",
    "model/capture/agent/record_encoder.h": '#pragma once\n#include "model/capture/agent/agent_records.h"\n#include <cstring>\n',
    "views/ok.h": '#pragma once\n#include <QWidget>\n#include "model/results/result_store.h"\n',
    "views/trace_view.h": '#pragma once\n#include "views/ok.h"\n',
    "app/gui/main_window.h": '#pragma once\n#include <QMainWindow>\n#include "views/trace_view.h"\n',
    "app/cupti_agent/agent_state.h": '#pragma once\n#include "model/capture/agent/record_encoder.h"\n#include <pthread.h>\n',
    "app/cupti_agent/agent.cc": '#include "app/cupti_agent/agent_state.h"\n#include <cupti_activity.h>\n',
    "views/timeline/timeline_canvas.h": '#pragma once\n#include <QWidget>\n',
    "views/timeline/timeline_view.h": '#pragma once\n#include "views/timeline/timeline_canvas.h"\n',
}


def write_tree(root, files):
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)


def run(root):
    result = subprocess.run([sys.executable, SCRIPT, root], capture_output=True, text=True)
    return result.returncode, result.stdout.splitlines(), result.stderr


def main():
    spec = importlib.util.spec_from_file_location("check_layering", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    failures = []

    untested = set(module.RULES) - {rule for _, _, rule in VIOLATIONS.values()}
    if untested:
        failures.append(f"rules without a violation in this test: {sorted(untested)}")

    with tempfile.TemporaryDirectory() as root:
        write_tree(root, CLEAN)
        write_tree(root, {path: text for path, (text, _, _) in VIOLATIONS.items()})
        code, lines, stderr = run(root)
        if code != 1:
            failures.append(f"with violations: exit {code}, expected 1\n{stderr}")
        expected = {f"{path}:{line}: {module.RULES[rule]} [{rule}]" for path, (_, line, rule) in VIOLATIONS.items()}
        found = {line.split(": #include", 1)[0] for line in lines}
        for line in sorted(expected - found):
            failures.append(f"not reported: {line}")
        for line in sorted(found - expected):
            failures.append(f"reported but not a violation: {line}")

        for path in VIOLATIONS:
            os.remove(os.path.join(root, path))
        code, lines, stderr = run(root)
        if code != 0 or len(lines) != 1 or "no layering violations" not in lines[0]:
            failures.append(f"clean tree: exit {code}, output {lines} {stderr}")

    for failure in failures:
        print("FAIL:", failure)
    if failures:
        return 1
    print(f"check_layering_selftest: {len(VIOLATIONS)} rules caught, clean tree passes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
