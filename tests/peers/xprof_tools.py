#!/usr/bin/env python3
"""Runs XProf's own converters (the `xprof` package) on one XSpace and writes what each tool
returns, decoded, as OUT_DIR/<tool>.json.

    xprof_tools.py FILE.xplane.pb OUT_DIR [TOOL,TOOL...]

Run it in its own process (TensorFlow and XProf both register the XPlane protos; the
comparison scripts never import either). The XSpace is copied into a temporary folder first:
the converters cache results (ALL_HOSTS.op_stats_v2.pb) beside the file they read.

What the tools return (xprof 2.24): every tool gives JSON text (bytes or str), no protos:
framework_op_stats, overview_page and input_pipeline_analyzer a list of Google DataTables
({"cols", "rows", "p"}), kernel_stats one DataTable, memory_profile the MemoryProfile proto as
JSON, trace_viewer a Chrome trace JSON object; hlo_stats one DataTable, roofline_model a list of
DataTables (the roofline table first), op_profile the op_profile.Profile proto as JSON.
Without a TOOL list the tools of TOOLS run. "memory_viewer:<module>(<id>)" runs the memory viewer
on that program (XProf needs the program's name with its id), written as that name + ".json".
"""
import json
import os
import shutil
import sys
import tempfile

TOOLS = ["framework_op_stats", "kernel_stats", "overview_page", "input_pipeline_analyzer", "memory_profile",
         "trace_viewer"]


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    src, out_dir = sys.argv[1], sys.argv[2]
    tools = sys.argv[3].split(",") if len(sys.argv) == 4 else TOOLS
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    from xprof.convert import raw_to_tool_data  # pylint: disable=import-outside-toplevel

    os.makedirs(out_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, os.path.basename(src))
        shutil.copyfile(src, path)
        if any(t.startswith("memory_viewer:") for t in tools):
            raw_to_tool_data.xspace_to_tool_names([path])  # writes each program's <module>(<id>).hlo_proto.pb
        for tool in tools:
            params = {"use_saved_result": False}
            name = tool
            if tool.startswith("memory_viewer:"):  # memory_viewer:<module>(<id>): one program's memory view
                name, module = tool.split(":", 1)
                params.update(module_name=module, program_id=module[module.rfind("(") + 1:-1], memory_space="0")
            data, _content_type = raw_to_tool_data.xspace_to_tool_data([path], name, params)
            if data is None:
                sys.exit(f"xprof {tool} failed on {src}")
            if isinstance(data, bytes):
                data = data.decode("utf-8")
            with open(os.path.join(out_dir, tool + ".json"), "w", encoding="utf-8") as f:
                json.dump(json.loads(data), f)


if __name__ == "__main__":
    main()
