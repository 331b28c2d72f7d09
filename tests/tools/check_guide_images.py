#!/usr/bin/env python3
"""The pictures and links of the user guide and the README.

Every picture a document shows must exist and must have been made by
resources/guide/make_screenshots.sh (listed in images/MANIFEST, at the size the manifest says);
every link to another chapter or file of the repository must lead somewhere; every chapter the
guide's contents page lists must exist. Usage: check_guide_images.py REPO
"""
import re
import struct
import sys
from pathlib import Path

IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def png_size(path):
    head = path.read_bytes()[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def main(repo):
    repo = Path(repo).resolve()
    guide = repo / "resources" / "guide"
    manifest = {}
    for line in (guide / "images" / "MANIFEST").read_text().splitlines():
        if line.startswith("#") or ":" not in line:
            continue
        name, args = line.split(":", 1)
        size = re.search(r"--size (\d+)x(\d+)", args)
        manifest[name.strip()] = (int(size.group(1)), int(size.group(2))) if size else None
    docs = [repo / "README.md"] + sorted(guide.glob("*.md"))
    problems, pictures, links = [], 0, 0
    for doc in docs:
        text = doc.read_text()
        text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks hold no links
        for target in IMAGE.findall(text):
            pictures += 1
            path = (doc.parent / target).resolve()
            if not path.is_file():
                problems.append(f"{doc.name}: picture {target} does not exist")
            elif path.parent != guide / "images" or path.name not in manifest:
                problems.append(f"{doc.name}: picture {target} was not made by make_screenshots.sh")
            elif manifest[path.name] and png_size(path) != manifest[path.name]:
                problems.append(f"{doc.name}: {target} is {png_size(path)}, the manifest says {manifest[path.name]}")
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a web address or an anchor
            links += 1
            if not (doc.parent / target.split("#")[0]).exists():
                problems.append(f"{doc.name}: link {target} leads nowhere")
    for name in manifest:
        if not (guide / "images" / name).is_file():
            problems.append(f"MANIFEST lists {name}, which is missing (run make_screenshots.sh)")
    for chapter in LINK.findall((guide / "index.md").read_text()):
        if not (guide / chapter).is_file():
            problems.append(f"index.md lists {chapter}, which is missing")
    for p in problems:
        print(p)
    print(f"{len(docs)} documents, {pictures} pictures, {links} links checked; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
