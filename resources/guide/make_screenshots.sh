#!/usr/bin/env bash
# Renders the user guide's and the README's pictures from real traces with the viewer's own
# --screenshot (1280x800, light and dark), into resources/guide/images/, and lists each picture
# with the command that made it in images/MANIFEST. The pictures are made here, never edited by
# hand: tests/tools/check_guide_images.py fails when a document names a picture this script did
# not make. Needs the traces in ../shared/testdata beside the repository.
#   resources/guide/make_screenshots.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: make_screenshots.sh BUILD_DIR}" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
shared=${TRACESCOPE_SHARED_DIR:-$repo/../shared}
out=$repo/resources/guide/images
viewer=$build/app/tracescope
export QT_QPA_PLATFORM=offscreen
# Fresh settings for every run (the pictures must not show this machine's last logdir or
# choices), and a neutral home in the paths the capture dialogs suggest; nothing is written there.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_CONFIG_HOME=$scratch/config XDG_CACHE_HOME=$scratch/cache XDG_DATA_HOME=/home/user/.local/share
mkdir -p "$out"
rm -f "$out"/*.png
manifest=$out/MANIFEST
echo "# picture: the tracescope --screenshot arguments that made it (resources/guide/make_screenshots.sh)" > "$manifest"

sample=resources/sample/torch_mlp_h100.json.gz
resnet=../shared/testdata/public/hta/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz
memory=../shared/testdata/gpu/torch_mlp_memory_h100.json
keras=tests/data/peers/tf_keras_fit.xplane.pb
tfdata=tests/data/peers/tf_data_slow_map.xplane.pb
jax=tests/data/peers/jax_train_steps.xplane.pb
rocm=../shared/testdata/public/tracelens/934987a2fc2f.xplane.pb

# shot NAME ARGS...: NAME-light.png and NAME-dark.png (paths in ARGS relative to the repository).
shot() {
    local name=$1
    shift
    local args=() a
    for a in "$@"; do args+=("${a/#..\/shared\//$shared/}"); done  # ../shared may live elsewhere
    for theme in light dark; do
        (cd "$repo" && "$viewer" --screenshot "$out/$name-$theme.png" --size 1280x800 --theme "$theme" "${args[@]}" >/dev/null 2>&1) ||
            { echo "make_screenshots: $name ($theme) failed: tracescope --screenshot ... $*" >&2; exit 1; }
        echo "$name-$theme.png: --size 1280x800 --theme $theme $*" >> "$manifest"
    done
}

shot timeline --view timeline $sample
shot timeline-selected --view timeline --select "aten::addmm" $sample
shot timeline-jax --view timeline $jax
shot loading-preview --view timeline --preview 16 ../shared/testdata/public/hta/df_index_resolver.json.gz
shot overview --view overview $keras
shot op-stats --view op-stats $sample
shot kernel-stats --view kernel-stats $resnet
shot gpu-util --view gpu-util $resnet
shot collectives --view collectives tests/data/peers/collectives/gloo_rank0.pt.trace.json.gz \
    tests/data/peers/collectives/gloo_rank1.pt.trace.json.gz tests/data/peers/collectives/gloo_rank2.pt.trace.json.gz
# The XLA Ops page and its tabs (the clicks open the Roofline, Memory and Graph tabs).
shot xla-ops --view xla-ops $rocm
shot xla-roofline --view xla-ops --click 125,126 $rocm
shot xla-memory --view xla-ops --click 198,126 $rocm
shot xla-graph --view xla-ops --click 258,126 $rocm
shot flame --view flame $sample
shot input-pipeline --view input-pipeline $tfdata
shot memory --view memory $memory
shot tf-data --view tf-data $tfdata
shot scopes --view scopes $keras
shot pod --view pod ../shared/testdata/public/hta/sampled_rank-0.json.gz ../shared/testdata/public/hta/sampled_rank-1.json.gz
shot compare --view compare tests/data/diff_steps/two_steps.json --compare tests/data/diff_steps/four_steps.json
shot query --view query --query "SELECT name, COUNT(*) AS calls, SUM(dur) AS total_ns FROM slice GROUP BY name ORDER BY total_ns DESC LIMIT 20" $sample
for dialog in capture launch shortcuts; do
    for theme in light dark; do
        "$viewer" --screenshot "$out/dialog-$dialog-$theme.png" --dialog "$dialog" --size 820x520 --theme "$theme" >/dev/null 2>&1 ||
            { echo "make_screenshots: dialog $dialog failed" >&2; exit 1; }
        echo "dialog-$dialog-$theme.png: --dialog $dialog --size 820x520 --theme $theme" >> "$manifest"
    done
done
echo "make_screenshots: $(ls "$out"/*.png | wc -l) pictures in $out"
