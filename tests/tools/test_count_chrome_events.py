#!/usr/bin/env python3
"""Hand-worked cases for count_chrome_events.py, so the reference the C++
tests trust is itself checked. Run: python3 tests/tools/test_count_chrome_events.py"""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import count_chrome_events as cce  # noqa: E402


def counts(events_or_text):
    text = events_or_text if isinstance(events_or_text, str) else json.dumps(events_or_text)
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
        f.write(text)
        path = f.name
    try:
        result, _ = cce.analyse_file(path)
        return result
    finally:
        os.unlink(path)


def X(name, ts, dur, pid=1, tid=1, **kw):
    return dict(ph='X', name=name, ts=ts, dur=dur, pid=pid, tid=tid, **kw)


class FlowV1(unittest.TestCase):
    def test_start_step_finish_bind_to_slices(self):
        ev = [X('a', 0, 10, tid=1), X('b', 20, 10, tid=2), X('c', 40, 10, tid=3),
              dict(ph='s', id='0x1', cat='c', name='n', ts=5, pid=1, tid=1),
              dict(ph='t', id='0x1', cat='c', name='n', ts=25, pid=1, tid=2),
              dict(ph='f', id='0x1', cat='c', name='n', ts=35, pid=1, tid=3)]  # next slice: c at 40
        self.assertEqual(counts(ev)['flows'], 2)

    def test_finish_enclosing_needs_a_slice(self):
        ev = [X('a', 0, 10, tid=1), X('b', 20, 10, tid=2),
              dict(ph='s', id=1, cat='c', name='n', ts=5, pid=1, tid=1),
              dict(ph='f', id=1, cat='c', name='n', ts=15, pid=1, tid=2, bp='e')]  # gap on tid 2
        self.assertEqual(counts(ev)['flows'], 0)
        ev[-1]['ts'] = 25
        self.assertEqual(counts(ev)['flows'], 1)

    def test_identity_includes_cat_name_and_id_token(self):
        ev = [X('a', 0, 10, tid=1), X('b', 20, 10, tid=2),
              dict(ph='s', id=1, cat='c', name='n', ts=5, pid=1, tid=1),
              dict(ph='f', id='1', cat='c', name='n', ts=25, pid=1, tid=2, bp='e'),   # string id: other flow
              dict(ph='f', id=1, cat='other', name='n', ts=25, pid=1, tid=2, bp='e')]  # other cat
        self.assertEqual(counts(ev)['flows'], 0)

    def test_orphans_and_same_slice_dropped(self):
        ev = [X('a', 0, 100),
              dict(ph='f', id=2, cat='c', name='n', ts=5, pid=1, tid=1, bp='e'),
              dict(ph='t', id=2, cat='c', name='n', ts=6, pid=1, tid=1),
              dict(ph='s', id=3, cat='c', name='n', ts=10, pid=1, tid=1),
              dict(ph='f', id=3, cat='c', name='n', ts=20, pid=1, tid=1, bp='e')]  # a -> a
        self.assertEqual(counts(ev)['flows'], 0)

    def test_deepest_enclosing_slice(self):
        ev = [X('outer', 0, 100, tid=1), X('inner', 10, 10, tid=1), X('other', 0, 100, tid=2),
              dict(ph='s', id=4, cat='c', name='n', ts=15, pid=1, tid=1),
              dict(ph='f', id=4, cat='c', name='n', ts=50, pid=1, tid=1, bp='e')]  # inner -> outer
        self.assertEqual(counts(ev)['flows'], 1)
        ev[-1]['ts'] = 12  # inner -> inner: dropped
        self.assertEqual(counts(ev)['flows'], 0)


class FlowV2(unittest.TestCase):
    def test_producer_step_consumers(self):
        ev = [X('p', 0, 10, tid=1, bind_id='0x1', flow_out=True),
              X('s', 20, 10, tid=2, bind_id='0x1', flow_in=True, flow_out=True),
              X('c1', 40, 10, tid=3, bind_id='0x1', flow_in=True),
              X('c2', 60, 10, tid=4, bind_id='0x1', flow_in=True),
              X('lonely', 80, 10, tid=5, bind_id='0x2', flow_in=True)]
        self.assertEqual(counts(ev)['flows'], 3)  # p->s, s->c1, s->c2


class Structure(unittest.TestCase):
    def test_string_and_int_ids_normalise(self):
        ev = [X('a', 0, 1, pid='12', tid='7'), X('b', 2, 1, pid=12, tid=7),
              dict(ph='i', name='m', ts=3, pid=12, tid='7', s='t'),
              X('c', 4, 1, pid='Spans', tid='stream 7')]
        r = counts(ev)
        self.assertEqual((r['processes'], r['tracks'], r['slices'], r['instants']), (2, 2, 3, 1))

    def test_missing_tid_is_pid_and_instant_scopes(self):
        ev = [dict(ph='i', name='t', ts=0, pid=5, s='t'), X('x', 1, 1, pid=5, tid=5),
              dict(ph='i', name='p', ts=2, pid=6, tid=1, s='p'),
              dict(ph='I', name='g', ts=3, s='g')]
        r = counts(ev)
        self.assertEqual((r['processes'], r['tracks'], r['instants']), (3, 1, 3))

    def test_counters(self):
        ev = [dict(ph='C', name='mem', ts=0, pid=1, args={'a': 1, 'b': '2.5', 'c': 'x', 'd': True}),
              dict(ph='C', name='mem', ts=1, pid=1, id=7, args={'a': 3}),
              dict(ph='C', name='mem', ts=2, pid=2, args={'a': -1e3})]
        r = counts(ev)
        # series: (1, "mem a"), (1, "mem b"), (1, "mem[7] a"), (2, "mem a"); 'x' and true are not numbers
        self.assertEqual((r['counter_samples'], r['counter_tracks'], r['processes']), (4, 4, 2))

    def test_begin_end_and_span(self):
        ev = [dict(ph='B', name='open', ts=6.0005, pid=1, tid=1),  # never closed: start only
              dict(ph='B', name='a', ts=1, pid=1, tid=1), dict(ph='E', ts=3, pid=1, tid=1),
              dict(ph='E', ts=5, pid=1, tid=1),                 # no open B at ts 5: dropped
              X('x', 0.0015, 1, tid=2)]
        r = counts(ev)
        self.assertEqual(r['slices'], 3)
        # 0.0015 µs -> 2 ns and 6.0005 µs -> 6001 ns (half up); ends: 3000, 1002 (2 + 1000)
        self.assertEqual(r['span_ns'], 6001 - 2)

    def test_numeric_string_times(self):
        ev = [dict(ph='X', name='a', ts='10', dur='2.5', pid=1, tid=1),
              dict(ph='i', name='b', ts='20.0005', pid=1, tid=1, s='t'),
              dict(ph='X', name='bad', ts='1e', dur=1, pid=1, tid=1)]   # not a number: dropped
        r = counts(ev)
        self.assertEqual((r['slices'], r['instants'], r['span_ns']), (1, 1, 10001))

    def test_async(self):
        ev = [dict(ph='b', cat='c', id='0x1', name='a', ts=0, pid=1),
              dict(ph='e', cat='c', id='0x1', name='a', ts=50, pid=1),
              dict(ph='n', cat='c', id='0x1', name='a', ts=10, pid=1),
              dict(ph='S', cat='c', id='k', name='s', ts=5, pid=2),
              dict(ph='e', cat='c', id='0x2', name='a', ts=99, pid=1)]  # unmatched end: no span
        r = counts(ev)
        self.assertEqual((r['async_slices'], r['instants'], r['processes'], r['span_ns']), (2, 1, 2, 50000))


class Truncation(unittest.TestCase):
    def test_array_cut_mid_event(self):
        r = counts('[{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1},{"ph":"X","na')
        self.assertEqual((r['slices'], r['truncated']), (1, True))

    def test_object_cut_in_events(self):
        r = counts('{"meta": {"k": [1, 2]}, "traceEvents": [{"ph":"i","name":"a","ts":1,"pid":1,"s":"p"},\n')
        self.assertEqual((r['instants'], r['truncated']), (1, True))

    def test_complete_files_are_not_truncated(self):
        r = counts('{"traceEvents": [], "traceName": "x"}')
        self.assertEqual(r['truncated'], False)


if __name__ == '__main__':
    unittest.main()
