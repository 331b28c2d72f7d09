#!/usr/bin/env python3
"""Checks the layering of the code base: which folder may include which.

    python3 tests/check_layering.py [SOURCE_DIR]

Reads every C++ source and header under model/, views/ and app/ of SOURCE_DIR (default: the
current folder), parses its #include lines and prints each include that breaks a rule as
"file:line: rule [rule id]: #include ...". Exits 1 when there is any, otherwise prints a one-line
summary and exits 0. Data flows one way: import -> trace -> results -> views -> app. The rules:

  model-no-ui        nothing in model/ includes views/ or app/ headers
  model-no-qt        nothing in model/ includes a Qt header (<QString>, <QtCore/...>, "x.moc")
  views-no-app       nothing in views/ includes app/ headers
  trace-leaf         model/trace/ (the data model) includes nothing of model/ but model/trace/
  analysis-no-import model/analysis/ and model/query/ do not include model/import/: the facts of
                     a trace they need (producer, plane and line kinds, workers) live in model/trace/
  views-no-import    views/ does not include model/import/ either
  capture-no-import  model/capture/ never includes model/import/ (import/ calls capture/'s
                     agent-record decoding, never the other way round)
  results-on-top     nothing in model/ outside model/results/ includes model/results/ (the result
                     store sits above analysis/, query/ and import/)
  canvas-private     outside views/timeline/, nothing includes the timeline's canvas
                     (views/timeline/timeline_canvas.h): pages, the main window and --screenshot
                     go through TimelineView and its controller
  agent-libc-only    app/cupti_agent/ (injected into CUDA programs) includes no views/ or Qt
                     header, no other library's header (protobuf, gRPC, JSON, compression, ...),
                     and of model/ only the agent record format headers, which themselves
                     include nothing but each other and the C/C++ standard library

tests/check_layering_selftest.py runs this on a small tree with one violation per rule.
"""

import os
import re
import sys

SOURCE_EXTENSIONS = (".h", ".hh", ".hpp", ".cc", ".cpp", ".cxx", ".inc")
CHECKED_ROOTS = ("model", "views", "app")

# The agent record format: header-only, libc only, shared by the agent and the model's decoder.
AGENT_FORMAT_HEADERS = frozenset({
    "model/capture/agent/agent_records.h",
    "model/capture/agent/record_encoder.h",
    "model/capture/agent/control_decoder.h",
})

# Libraries the CUPTI agent must not use (it links CUPTI, libc and the static C++ runtime).
AGENT_FORBIDDEN_LIBRARIES = re.compile(
    r"^(google/|grpc|grpcpp/|absl/|simdjson|nlohmann/|zlib\.h$|zconf\.h$|libdeflate|sqlite3|graphviz/|gvc\.h$|"
    r"cgraph\.h$)")

RULES = {
    "model-no-ui": "model/ must not include views/ or app/ headers",
    "model-no-qt": "model/ must not include Qt headers (the model has no Qt)",
    "views-no-app": "views/ must not include app/ headers",
    "trace-leaf": "model/trace/ must include nothing of model/ but model/trace/",
    "analysis-no-import": "model/analysis/ and model/query/ must not include model/import/ "
                          "(the facts of a trace they need belong in model/trace/)",
    "views-no-import": "views/ must not include model/import/ "
                       "(facts of a trace belong in model/trace/, the analyses' memory budget in model/results/)",
    "capture-no-import": "model/capture/ must not include model/import/ (import/ calls capture/, never the other way round)",
    "results-on-top": "model/ outside model/results/ must not include model/results/ (the result store sits above)",
    "canvas-private": "outside views/timeline/, go through TimelineView and its controller, "
                      "not the canvas (views/timeline/timeline_canvas.h)",
    "agent-libc-only": "app/cupti_agent/ and the agent record format headers include only each other, "
                       "the C/C++ standard library and CUPTI",
}

INCLUDE_LINE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def is_qt_header(name):
    """<QString>, <QtCore/QString>, <QtConcurrent>, "x.moc", "ui_x.h" (Qt's own headers are CamelCase)."""
    first = name.split("/", 1)[0]
    file = name.rsplit("/", 1)[-1]
    return (re.match(r"^Q[A-Z]\w*$|^Qt\w*$", first) is not None
            or file.endswith(".moc") or re.match(r"^(ui|moc)_\w+\.(h|cpp)$", file) is not None)


def under(path, folder):
    return path == folder or path.startswith(folder + "/")


def read_includes(text):
    """Yields (line number, delimiter, included name) for each #include outside comments."""
    in_block_comment = False
    for number, line in enumerate(text.splitlines(), start=1):
        if in_block_comment:
            end = line.find("*/")
            if end < 0:
                continue
            line = line[end + 2:]
            in_block_comment = False
        # A block comment opened before the directive on this line hides it; one opened after
        # it (or a line comment) does not.
        stripped = line.lstrip()
        if stripped.startswith("/*"):
            end = stripped.find("*/", 2)
            if end < 0:
                in_block_comment = True
                continue
            line = stripped[end + 2:]
        match = INCLUDE_LINE.match(line)
        if match:
            yield number, match.group(1), match.group(2).strip()
        # A block comment left open at the end of the line.
        code = line.split("//", 1)[0]
        opened = code.rfind("/*")
        if opened >= 0 and code.find("*/", opened + 2) < 0:
            in_block_comment = True


def resolve(root, source, delimiter, name):
    """The repository-relative path of a quoted project include, or None for other headers."""
    if delimiter == "<":
        return name if name.split("/", 1)[0] in CHECKED_ROOTS else None
    if name.split("/", 1)[0] in CHECKED_ROOTS:
        return os.path.normpath(name).replace(os.sep, "/")
    # A path relative to the including file.
    candidate = os.path.normpath(os.path.join(os.path.dirname(source), name)).replace(os.sep, "/")
    if os.path.exists(os.path.join(root, candidate)):
        return candidate
    return None


def check_include(source, delimiter, name, target):
    """The rules that the include of `name` (resolved to `target`, or None) in `source` breaks."""
    broken = []
    in_model = under(source, "model")
    if in_model and target and (under(target, "views") or under(target, "app")):
        broken.append("model-no-ui")
    if in_model and not target and is_qt_header(name):
        broken.append("model-no-qt")
    if under(source, "views") and target and under(target, "app"):
        broken.append("views-no-app")
    if under(source, "model/trace") and target and under(target, "model") and not under(target, "model/trace"):
        broken.append("trace-leaf")
    if (under(source, "model/analysis") or under(source, "model/query")) and target and under(target, "model/import"):
        broken.append("analysis-no-import")
    if under(source, "views") and target and under(target, "model/import"):
        broken.append("views-no-import")
    if under(source, "model/capture") and target and under(target, "model/import"):
        broken.append("capture-no-import")
    if in_model and not under(source, "model/results") and target and under(target, "model/results"):
        broken.append("results-on-top")
    if target == "views/timeline/timeline_canvas.h" and not under(source, "views/timeline"):
        broken.append("canvas-private")
    if under(source, "app/cupti_agent") or source in AGENT_FORMAT_HEADERS:
        if target:
            allowed = under(target, "app/cupti_agent") if under(source, "app/cupti_agent") else False
            if not allowed and target not in AGENT_FORMAT_HEADERS:
                broken.append("agent-libc-only")
        elif is_qt_header(name) or AGENT_FORBIDDEN_LIBRARIES.match(name) or name.endswith(".pb.h"):
            broken.append("agent-libc-only")
    return broken


def source_files(root):
    for top in CHECKED_ROOTS:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for file in sorted(files):
                if file.endswith(SOURCE_EXTENSIONS):
                    path = os.path.join(folder, file)
                    yield os.path.relpath(path, root).replace(os.sep, "/"), path


def main(argv):
    root = argv[1] if len(argv) > 1 else "."
    if len(argv) > 2 or not os.path.isdir(os.path.join(root, "model")):
        print(f"usage: {argv[0]} [SOURCE_DIR]   (SOURCE_DIR holds model/, views/ and app/)", file=sys.stderr)
        return 2
    violations = []
    files = includes = 0
    for source, path in source_files(root):
        files += 1
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for number, delimiter, name in read_includes(text):
            includes += 1
            target = resolve(root, source, delimiter, name)
            for rule in check_include(source, delimiter, name, target):
                shown = f"<{name}>" if delimiter == "<" else f'"{name}"'
                violations.append(f"{source}:{number}: {RULES[rule]} [{rule}]: #include {shown}")
    for line in violations:
        print(line)
    if violations:
        print(f"check_layering: {len(violations)} layering violation(s) in {files} files", file=sys.stderr)
        return 1
    print(f"check_layering: {files} files, {includes} includes, no layering violations")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
