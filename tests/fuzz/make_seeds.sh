#!/usr/bin/env bash
# Assembles the seed folders of the fuzz targets under OUT/<target>/: the hand-made seeds
# in tests/fuzz/corpus, the hostile test files, and files of ../shared/testdata (whole when
# small, else their first 64 KiB; .gz files also inflated, their first 64 KiB; the real JAX
# replies wrapped as ProfileResponses).
#   tests/fuzz/make_seeds.sh OUT [SHARED_DIR]
set -euo pipefail
out=${1:?usage: make_seeds.sh OUT [SHARED_DIR]}
repo=$(cd "$(dirname "$0")/../.." && pwd)
shared=${2:-$repo/../shared}
head_bytes=65536
targets=(chrome_json chrome_gzip xspace run_metadata detect logdir analyses agent_records agent_control capture_reply sql hlo
  cupti_records)
for t in "${targets[@]}"; do
  mkdir -p "$out/$t"
  if [ -d "$repo/tests/fuzz/corpus/$t" ]; then cp "$repo/tests/fuzz/corpus/$t"/* "$out/$t"/; fi
done

n=0
add() {  # add TARGET NAME < bytes
  n=$((n + 1))
  cat > "$out/$1/$n-$2"
}
for f in "$repo"/tests/data/hostile/*; do
  for t in chrome_json detect analyses; do add $t "$(basename "$f")" < "$f"; done
  { printf '\0\0'; cat "$f"; } | add chrome_gzip "$(basename "$f")"
done
for f in "$repo"/tests/import_runmetadata/data/*.pb "$repo"/tests/data/peers/*run_metadata*.pb; do
  for t in run_metadata detect analyses; do head -c $head_bytes "$f" | add $t "$(basename "$f")"; done
done
for f in "$repo"/tests/data/peers/*.xplane.pb; do
  for t in xspace detect analyses; do head -c $head_bytes "$f" | add $t "$(basename "$f")"; done
done

if [ -d "$shared/testdata" ]; then
  while IFS= read -r -d '' f; do
    b=$(basename "$f")
    case "$b" in
      *.json)
        for t in chrome_json detect analyses; do head -c $head_bytes "$f" | add $t "$b"; done
        { printf '\0\0'; head -c $head_bytes "$f"; } | add chrome_gzip "$b" ;;
      *.json.gz)
        for t in chrome_json detect analyses; do { zcat "$f" 2>/dev/null || true; } | head -c $head_bytes | add $t "$b"; done
        if [ "$(stat -c %s "$f")" -le $((4 * head_bytes)) ]; then { printf '\377'; cat "$f"; } | add chrome_gzip "$b"
        else { printf '\300\200'; { zcat "$f" 2>/dev/null || true; } | head -c $head_bytes; } | add chrome_gzip "$b"; fi ;;
      *.xplane.pb)
        for t in xspace detect analyses; do head -c $head_bytes "$f" | add $t "$b"; done
        # The real JAX replies (the xspace field of a ProfileResponse), as the two kinds of reply.
        case "$b" in *emit_xspace*)
          for mode in xspace tool_data; do
            head -c $((head_bytes - 64)) "$f" | python3 "$repo/tests/fuzz/make_corpus.py" wrap-reply $mode | add capture_reply "$mode-$b"
          done ;;
        esac ;;
    esac
  done < <(find "$shared/testdata" -type f -print0 | sort -z)
else
  echo "make_seeds.sh: no $shared/testdata; only the repository's seeds" >&2
fi
for t in "${targets[@]}"; do echo "$t: $(ls "$out/$t" | wc -l) seeds"; done
