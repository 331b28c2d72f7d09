#!/usr/bin/env python3
"""Independent reference counts for Chrome Trace Event Format files.

Reads a Chrome trace (array or object form; gzip detected by its magic bytes)
with nothing but the standard json/gzip/zlib modules and prints the counts that
`tracescope-cli info FILE --json` must report. It shares no code with the C++
importer: it is the second, independent implementation of the definitions
below, used to produce tests/data/chrome_expected_counts.json.

Definitions (the importer implements the same ones):
  slices          X events with a valid ts, plus every B (matched or not);
                  an E without an open B on its thread is dropped.
  async_slices    b and S (begin) events.
  instants        i, I and n events.
  counter_samples numeric args (JSON numbers or numeric strings, finite as a
                  double) of C events.
  counter_tracks  distinct (pid, "<name> <argkey>") or (pid, "<name>[<id>] <argkey>").
  pid / tid       a string holding a plain integer equals that integer, other
                  strings are their own ids; a missing tid is the pid.
  tracks          distinct (pid, tid) with a slice or a thread-scope instant
                  (i/I whose s is missing or "t").
  processes       distinct pids with a slice, an instant (scope other than g),
                  a counter sample, an async begin or an n instant; plus one
                  "Global" process when some i/I has s == "g".
  flows           v1 s/t/f per identity (cat, name, id token) in ts order and
                  v2 bind_id + flow_in/flow_out on X/B slices (see count_flows).
  span_ns         max(end) - min(start) over slices, instants, counter samples
                  and async begins/ends, ts converted exactly from the decimal
                  text (µs -> ns, half-up rounding beyond 3 decimals); ts and
                  dur may also be strings holding a JSON number.
                  Unfinished B and b extend to the trace end, so they add
                  only their start.

B/E matching: per thread, events stably sorted by ts (file order on ties); an
E closes the innermost open B whatever its name (catapult's rule).

Truncated files are read like catapult/speedscope do: every complete event
up to the cut is kept (an incomplete trailing event and a trailing comma are
dropped, as if the array were closed with ']'), and "truncated" is true.

Usage:
  count_chrome_events.py FILE...            one JSON object per file
  count_chrome_events.py --phases FILE...   also print the raw phase counts
  count_chrome_events.py --write-expected OUT.json DATA_DIR
        counts for every .json / .json.gz under DATA_DIR/public and
        DATA_DIR/gpu, keyed by path relative to DATA_DIR
  count_chrome_events.py --check-sources DATA_DIR/public/SOURCES.md DATA_DIR
        compares the raw phase counts with the "Phase counts" column of
        SOURCES.md (computed there by a different throwaway script); exits 1
        on any difference. With --expected FILE it checks the "phases" stored
        in a written expected file instead of re-reading the traces (fast; CTest
        runs it). Both checks pass: the raw phase counts of all 49 files in
        SOURCES.md agree exactly with this script's.

The committed expected file is regenerated with (from the repository root):
  python3 tests/tools/count_chrome_events.py \
      --write-expected tests/data/chrome_expected_counts.json ../shared/testdata
"""

import argparse
import decimal
import gzip
import json
import os
import re
import sys
import zlib
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from decimal import Decimal

decimal.getcontext().prec = 200  # exact arithmetic for any sane timestamp

_WS = re.compile(r'[ \t\n\r]*')
_JSON_NUMBER = re.compile(r'-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\Z')
_PLAIN_INT = re.compile(r'-?[0-9]+\Z')
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def _reject_constant(token):
    raise ValueError('non-JSON constant ' + token)


_DECODER = json.JSONDecoder(parse_float=Decimal, parse_constant=_reject_constant)


# ----------------------------------------------------------------------------
# Reading


def read_text(path):
    """File content as text; gzip (also multi-member or cut) is inflated."""
    with open(path, 'rb') as f:
        data = f.read()
    gzip_cut = False
    if data[:2] == b'\x1f\x8b':
        chunks = []
        rest = data
        while rest[:2] == b'\x1f\x8b':
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
            try:
                chunks.append(d.decompress(rest))
            except zlib.error:
                gzip_cut = True
                break
            if not d.eof:
                gzip_cut = True
                break
            rest = d.unused_data
        data = b''.join(chunks)
    text = data.decode('utf-8', errors='replace')
    if text.startswith('\ufeff'):
        text = text[1:]
    return text, gzip_cut


def _skip_ws(text, i):
    return _WS.match(text, i).end()


def _parse_event_array(text, i, events):
    """Parses '[' ... ']' starting at text[i] == '['. Returns (end index, complete)."""
    i = _skip_ws(text, i + 1)
    if i < len(text) and text[i] == ']':
        return i + 1, True
    while True:
        try:
            value, i = _DECODER.raw_decode(text, i)
        except (ValueError, RecursionError):
            return i, False  # partial (or malformed) last element: the cut
        events.append(value)
        i = _skip_ws(text, i)
        if i >= len(text):
            return i, False
        if text[i] == ']':
            return i + 1, True
        if text[i] != ',':
            return i, False
        i = _skip_ws(text, i + 1)
        if i >= len(text):
            return i, False  # "...}," then EOF: trailing comma of a cut array


def load_trace(path):
    """Returns (events, metadata dict, truncated)."""
    text, gzip_cut = read_text(path)
    try:
        doc = _DECODER.decode(text)
        if isinstance(doc, list):
            return doc, {}, gzip_cut
        if isinstance(doc, dict):
            events = doc.get('traceEvents', [])
            meta = {k: v for k, v in doc.items() if k != 'traceEvents'}
            return (events if isinstance(events, list) else []), meta, gzip_cut
        raise ValueError('top level is neither an array nor an object')
    except (ValueError, RecursionError):
        pass
    # Not a complete JSON document: salvage the complete events.
    events, meta = [], {}
    i = _skip_ws(text, 0)
    if i < len(text) and text[i] == '[':
        _, complete = _parse_event_array(text, i, events)
        return events, meta, True
    if i < len(text) and text[i] == '{':
        i = _skip_ws(text, i + 1)
        while i < len(text) and text[i] != '}':
            try:
                key, i = _DECODER.raw_decode(text, i)
                i = _skip_ws(text, i)
                if text[i:i + 1] != ':':
                    break
                i = _skip_ws(text, i + 1)
                if key == 'traceEvents' and text[i:i + 1] == '[':
                    i, complete = _parse_event_array(text, i, events)
                    if not complete:
                        break
                else:
                    meta[key], i = _DECODER.raw_decode(text, i)
            except (ValueError, RecursionError):
                break
            i = _skip_ws(text, i)
            if text[i:i + 1] == ',':
                i = _skip_ws(text, i + 1)
        return events, meta, True
    raise ValueError('not a Chrome trace: ' + path)


# ----------------------------------------------------------------------------
# Value helpers


def to_ns(value):
    """µs (JSON number, or a string holding one, as ROCm writes) -> int ns
    (exact decimal), or None if not a valid time."""
    if isinstance(value, str) and _JSON_NUMBER.match(value):
        value = Decimal(value)
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        return None
    d = Decimal(value) * 1000
    if not d.is_finite():
        return None
    n = int(d.to_integral_value(rounding=decimal.ROUND_HALF_UP))
    if n < INT64_MIN or n > INT64_MAX:
        return None
    return n


def norm_id(value, default):
    """pid/tid normalisation: '123' == 123, other strings are their own ids."""
    if value is None:
        return default
    if isinstance(value, bool):
        return ('bool', value)
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return int(value) if _PLAIN_INT.match(value) else ('str', value)
    if isinstance(value, Decimal):
        return ('num', str(value))
    return ('json', json.dumps(value, default=str, sort_keys=True))


def token(value):
    """The identity of an id as written (string "31" and number 31 differ)."""
    if value is None:
        return None
    if isinstance(value, str):
        return ('str', value)
    if isinstance(value, bool):
        return ('bool', value)
    if isinstance(value, (int, Decimal)):
        return ('num', str(value))
    return ('json', json.dumps(value, default=str, sort_keys=True))


def id_text(value):
    if isinstance(value, str):
        return value
    return json.dumps(value, default=str)


def is_numeric(value):
    """A counter value: a JSON number or numeric string that is finite as a
    double (1e400 is valid JSON but no plottable value)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, str) and _JSON_NUMBER.match(value):
        value = Decimal(value)
    if not isinstance(value, (int, Decimal)):
        return False
    return abs(Decimal(value)) <= Decimal('1.7976931348623157e308')


def text_of(value):
    if value is None:
        return ''
    return value if isinstance(value, str) else json.dumps(value, default=str)


# ----------------------------------------------------------------------------
# Slice lookup on one thread (for flow binding)


class ThreadSlices:
    """Slices of one thread sorted by (start, longer first, file order)."""

    def __init__(self, items):
        # items: (start, end, key, order)
        items.sort(key=lambda s: (s[0], -(s[1] - s[0]), s[3]))
        self.starts = [s[0] for s in items]
        self.ends = [s[1] for s in items]
        self.keys = [s[2] for s in items]
        n = len(items)
        size = 1
        while size < max(n, 1):
            size *= 2
        self.size = size
        tree = [INT64_MIN] * (2 * size)
        for k, e in enumerate(self.ends):
            tree[size + k] = e
        for k in range(size - 1, 0, -1):
            tree[k] = max(tree[2 * k], tree[2 * k + 1])
        self.tree = tree

    def _rightmost_at_least(self, node, lo, hi, limit, t):
        """Rightmost leaf index <= limit in [lo, hi) whose end >= t."""
        if lo > limit or self.tree[node] < t:
            return -1
        if hi - lo == 1:
            return lo
        mid = (lo + hi) // 2
        r = self._rightmost_at_least(2 * node + 1, mid, hi, limit, t)
        if r >= 0:
            return r
        return self._rightmost_at_least(2 * node, lo, mid, limit, t)

    def enclosing(self, t):
        """Deepest slice with start <= t <= end: the last such one in sort order."""
        pos = bisect_right(self.starts, t) - 1
        if pos < 0:
            return None
        k = self._rightmost_at_least(1, 0, self.size, pos, t)
        return self.keys[k] if k >= 0 else None

    def next_at_or_after(self, t):
        k = bisect_left(self.starts, t)
        return self.keys[k] if k < len(self.keys) else None


# ----------------------------------------------------------------------------
# Counting


def count_events(events, be_file_order=False, v2_in_consumes=False, arrows=None):
    """The info counts of a list of events. `arrows`, when a list, receives
    (flow identity, from slice key, to slice key) for every counted flow."""
    slices = async_slices = instants = counter_samples = 0
    procs, tracks, series = set(), set(), set()
    has_global = False
    times = []  # (lo, hi) contributions
    be = defaultdict(list)        # thread -> [(ts, order, ph)]
    x_slices = defaultdict(list)  # thread -> [(start, end, key, order)]
    async_ev = defaultdict(list)  # identity -> [(ts, order, is_begin)]
    v1 = defaultdict(list)        # identity -> [(ts, order, ph, thread, bp)]
    v2 = defaultdict(list)        # bind token -> [(ts, order, key, flow_in, flow_out)]

    for order, e in enumerate(events):
        if not isinstance(e, dict):
            continue
        ph = e.get('ph')
        if not isinstance(ph, str) or ph == 'M':
            continue
        ts = to_ns(e.get('ts'))
        if ts is None:
            continue
        pid = norm_id(e.get('pid'), 0)
        thread = (pid, norm_id(e.get('tid'), pid))
        if ph in ('X', 'B'):
            slices += 1
            procs.add(pid)
            tracks.add(thread)
            key = (ph, order)
            if ph == 'X':
                dur = to_ns(e.get('dur'))
                end = ts + max(dur or 0, 0)
                x_slices[thread].append((ts, end, key, order))
                times.append((ts, end))
            else:
                be[thread].append((ts, order, 'B'))
                times.append((ts, ts))
            if 'bind_id' in e and (e.get('flow_in') is True or e.get('flow_out') is True):
                v2[token(e['bind_id'])].append(
                    (ts, order, key, e.get('flow_in') is True, e.get('flow_out') is True))
        elif ph == 'E':
            be[thread].append((ts, order, 'E'))
        elif ph in ('i', 'I'):
            instants += 1
            times.append((ts, ts))
            scope = e.get('s')
            if scope == 'g':
                has_global = True
            else:
                procs.add(pid)
                if scope != 'p':
                    tracks.add(thread)
        elif ph == 'n':
            instants += 1
            procs.add(pid)
            times.append((ts, ts))
        elif ph == 'C':
            args = e.get('args')
            if not isinstance(args, dict):
                continue
            name = text_of(e.get('name'))
            if 'id' in e:
                name = '%s[%s]' % (name, id_text(e['id']))
            for k, v in args.items():
                if is_numeric(v):
                    counter_samples += 1
                    series.add((pid, name + ' ' + k))
                    procs.add(pid)
                    times.append((ts, ts))
        elif ph in ('b', 'e'):
            ident = ('nestable', pid, text_of(e.get('cat')),
                     token(e['id']) if 'id' in e else token(e.get('id2')))
            if ph == 'b':
                async_slices += 1
                procs.add(pid)
                times.append((ts, ts))
            async_ev[ident].append((ts, order, ph == 'b'))
        elif ph in ('S', 'F'):
            ident = ('legacy', text_of(e.get('cat')), text_of(e.get('name')), token(e.get('id')))
            if ph == 'S':
                async_slices += 1
                procs.add(pid)
                times.append((ts, ts))
            async_ev[ident].append((ts, order, ph == 'S'))
        elif ph in ('s', 't', 'f'):
            ident = (text_of(e.get('cat')), text_of(e.get('name')), token(e.get('id')))
            v1[ident].append((ts, order, ph, thread, e.get('bp')))

    # B/E matching.
    unfinished = []  # (thread, start, key)
    for thread, evs in be.items():
        if not be_file_order:
            evs.sort(key=lambda x: (x[0], x[1]))
        stack = []
        for ts, order, ph in evs:
            if ph == 'B':
                stack.append((ts, order))
            elif stack:
                start, border = stack.pop()
                x_slices[thread].append((start, ts, ('B', border), border))
                times.append((start, ts))
        for start, border in stack:
            unfinished.append((thread, start, ('B', border), border))

    # Async begin/end matching: an end closes the innermost open begin of its identity.
    for evs in async_ev.values():
        evs.sort(key=lambda x: (x[0], x[1]))
        open_begins = []
        for ts, order, is_begin in evs:
            if is_begin:
                open_begins.append(ts)
            elif open_begins:
                open_begins.pop()
                times.append((ts, ts))

    if times:
        lo = min(t[0] for t in times)
        hi = max(t[1] for t in times)
    else:
        lo = hi = 0
    span_ns = hi - lo

    for thread, start, key, order in unfinished:
        x_slices[thread].append((start, max(hi, start), key, order))

    lookup = {thread: ThreadSlices(items) for thread, items in x_slices.items()}

    def enclosing(thread, t):
        s = lookup.get(thread)
        return s.enclosing(t) if s else None

    def next_slice(thread, t):
        s = lookup.get(thread)
        return s.next_at_or_after(t) if s else None

    flows = 0
    for ident, evs in v1.items():
        evs.sort(key=lambda x: (x[0], x[1]))
        is_open = False
        prev = None
        for ts, order, ph, thread, bp in evs:
            if ph == 's':
                is_open = True
                prev = enclosing(thread, ts)
                continue
            if not is_open:
                continue  # t/f without an open s
            if ph == 'f' and bp != 'e':
                cur = next_slice(thread, ts)
            else:
                cur = enclosing(thread, ts)
            if prev is not None and cur is not None and prev != cur:
                flows += 1
                if arrows is not None:
                    arrows.append((ident, prev, cur))
            if ph == 't':
                prev = cur
            else:
                is_open = False
                prev = None

    for bind, evs in v2.items():
        evs.sort(key=lambda x: (x[0], x[1]))
        pending = None
        for ts, order, key, flow_in, flow_out in evs:
            if flow_in and pending is not None:
                if pending != key:
                    flows += 1
                    if arrows is not None:
                        arrows.append((bind, pending, key))
                if v2_in_consumes:
                    pending = None
            if flow_out:
                pending = key

    processes = len(procs) + (1 if has_global else 0)
    return {
        'processes': processes,
        'tracks': len(tracks),
        'counter_tracks': len(series),
        'slices': slices,
        'async_slices': async_slices,
        'instants': instants,
        'counter_samples': counter_samples,
        'flows': flows,
        'span_ns': span_ns,
    }


def phase_counts(events):
    c = Counter()
    for e in events:
        if isinstance(e, dict) and isinstance(e.get('ph'), str):
            c[e['ph']] += 1
    return dict(c)


def analyse_file(path, sensitivity=False):
    events, meta, truncated = load_trace(path)
    result = count_events(events)
    result['truncated'] = truncated
    if sensitivity:
        # Alternative readings of under-specified corners; reported on stderr so
        # a test author can see which numbers depend on them.
        for label, kwargs in (('B/E in file order', {'be_file_order': True}),
                              ('v2 flow_in consumes', {'v2_in_consumes': True})):
            alt = count_events(events, **kwargs)
            diff = {k: (result[k], alt[k]) for k in alt if alt[k] != result[k]}
            if diff:
                print('%s: %s changes %s' % (path, label, diff), file=sys.stderr)
    return result, events


def find_traces(data_dir):
    out = []
    for sub in ('public', 'gpu'):
        root = os.path.join(data_dir, sub)
        for dirpath, _, files in os.walk(root):
            for name in files:
                if name.endswith('.json') or name.endswith('.json.gz'):
                    out.append(os.path.relpath(os.path.join(dirpath, name), data_dir))
    return sorted(out)


def parse_sources(path):
    """file name -> {phase: count} from the tables of SOURCES.md."""
    expected = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            cells = [c.strip() for c in line.split('|')]
            if len(cells) < 8 or not cells[1].startswith('`'):
                continue
            name = cells[1].strip('`')
            phases = {}
            for item in cells[6].split():
                ph, _, n = item.rpartition(':')
                if ph and n.isdigit():
                    phases[ph] = int(n)
            if phases:
                expected[name] = phases
    return expected


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('files', nargs='*')
    ap.add_argument('--phases', action='store_true', help='also print raw phase counts')
    ap.add_argument('--sensitivity', action='store_true',
                    help='report counts that change under alternative readings')
    ap.add_argument('--write-expected', metavar='OUT', help='write counts for DATA_DIR (first positional)')
    ap.add_argument('--check-sources', metavar='SOURCES_MD', help='compare phase counts with SOURCES.md')
    ap.add_argument('--expected', metavar='FILE', help='with --check-sources: take phases from FILE')
    a = ap.parse_args(argv)

    if a.write_expected or a.check_sources:
        if len(a.files) != 1:
            ap.error('give the shared testdata directory')
        data_dir = a.files[0]
        if a.check_sources:
            expected = parse_sources(a.check_sources)
            stored = None
            if a.expected:
                with open(a.expected, encoding='utf-8') as f:
                    stored = json.load(f)
            bad = 0
            for rel in find_traces(os.path.join(data_dir)):
                name = os.path.basename(rel)
                if name not in expected:
                    continue
                if stored is not None:
                    got = stored.get(rel, {}).get('phases')
                else:
                    events, _, _ = load_trace(os.path.join(data_dir, rel))
                    got = phase_counts(events)
                status = 'ok' if got == expected[name] else 'MISMATCH'
                if got != expected[name]:
                    bad += 1
                print('%-8s %s %s' % (status, rel, '' if got == expected[name] else (got, expected[name])))
            missing = set(expected) - {os.path.basename(r) for r in find_traces(data_dir)}
            for name in sorted(missing):
                print('missing  %s' % name)
            return 1 if bad or missing else 0
        out = {}
        for rel in find_traces(data_dir):
            result, events = analyse_file(os.path.join(data_dir, rel), a.sensitivity)
            result['phases'] = dict(sorted(phase_counts(events).items()))
            out[rel] = result
        with open(a.write_expected, 'w', encoding='utf-8') as f:
            json.dump(out, f, indent=1, sort_keys=True)
            f.write('\n')
        return 0

    for path in a.files:
        result, events = analyse_file(path, a.sensitivity)
        if a.phases:
            result['phases'] = dict(sorted(phase_counts(events).items()))
        print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
