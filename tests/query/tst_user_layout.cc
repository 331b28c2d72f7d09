// The saved timeline layout (order, pins, hidden, hidden derived tracks, collapsed, bookmarks) round-trips through
// its text form, a damaged or foreign text is read leniently, and the minimap's density
// counts every event once in the bucket of its start; values follow from the construction.
#include "model/query/event_density.h"
#include "model/query/user_layout.h"
#include "model/trace/trace_builder.h"

#include <QtTest>

#include <algorithm>
#include <numeric>

using namespace tracescope;

namespace {

std::shared_ptr<const Trace> threeByThree() {
    TraceBuilder b("layout");
    const StringId n = b.intern("x");
    for (int i = 0; i < 3; ++i) {
        const ProcessIndex p = b.addProcess(ProcessKind::Host, i + 1, "p" + std::to_string(i));
        for (int k = 0; k < 3; ++k) {
            const TrackIndex t = b.addTrack(p, TrackKind::Thread, "t" + std::to_string(k), k + 1);
            b.addSlice(t, 1000 * (3 * i + k), 10, n, kEmptyString);
        }
    }
    return b.finish();
}

}  // namespace

class UserLayoutTest : public QObject {
    Q_OBJECT
private slots:
    void roundTrip() {
        auto trace = threeByThree();
        TimelineUserLayout layout;
        layout.fitTo(*trace);
        QVERIFY(layout.isDefault());
        layout.options.collapsed[1] = 1;
        layout.options.hiddenTracks[4] = 1;
        layout.options.pinnedTracks[7] = 1;
        QVERIFY(moveProcess(*trace, layout.options, 2, 0, false));
        layout.bookmarks = {{500, "warm up"}, {200, "first: a label with spaces"}};
        layout.counterModes[2] = 1;  // steps
        layout.counterModes[5] = 2;  // lines
        const TimelineUserLayout back = parseUserLayout(serializeUserLayout(layout), *trace);
        QCOMPARE(back.counterModes, layout.counterModes);
        QCOMPARE(back.options.collapsed, layout.options.collapsed);
        QCOMPARE(back.options.hiddenTracks, layout.options.hiddenTracks);
        QCOMPARE(back.options.pinnedTracks, layout.options.pinnedTracks);
        QCOMPARE(back.options.processRank, layout.options.processRank);
        QVERIFY(back.options.trackRank.empty());
        QCOMPARE(back.bookmarks.size(), size_t(2));
        QCOMPARE(back.bookmarks[0].time, TimeNs(200));  // sorted by time
        QCOMPARE(back.bookmarks[0].label, std::string("first: a label with spaces"));
        QCOMPARE(back.bookmarks[1].label, std::string("warm up"));
        QVERIFY(!back.isDefault());
    }

    // Hidden derived tracks are kept by name (they come later than the layout, with their
    // analysis): the name round-trips with its spaces, and the layout leaves that track out.
    void hiddenDerivedTrack() {
        auto trace = threeByThree();
        TimelineUserLayout layout;
        layout.fitTo(*trace);
        layout.options.hiddenDerived = {"Memory cuda:0: allocated"};
        QVERIFY(!layout.isDefault());
        const TimelineUserLayout back =
            parseUserLayout(serializeUserLayout(layout) + "hidden-derived Memory cuda:0: allocated\n", *trace);
        QCOMPARE(back.options.hiddenDerived, layout.options.hiddenDerived);  // once, though written twice
        TrackLayoutOptions options = back.options;
        options.derived = {{0, "Memory cuda:0: allocated"}, {0, "Memory cuda:0: reserved"}};
        TrackLayout shown;
        shown.build(*trace, options);
        std::vector<uint32_t> derivedRows;
        for (const LayoutRow& row : shown.rows())
            if (row.kind == LayoutRow::Kind::Derived) derivedRows.push_back(row.track);
        QCOMPARE(derivedRows, std::vector<uint32_t>{1});  // only the reserved one
    }

    // Query tracks keep their name and SQL whatever they hold (tabs, line breaks, backslashes,
    // a line that looks like another key); a later line of the same name replaces an earlier;
    // lines we did not write (no tab, an empty field, three fields) are skipped.
    void queryTracks() {
        auto trace = threeByThree();
        TimelineUserLayout layout;
        layout.fitTo(*trace);
        layout.queryTracks = {{"long kernels", "SELECT ts, dur AS value\nFROM slice\tWHERE name LIKE '%\\n%'"},
                              {"tab\there", "SELECT 1 AS ts, 2 AS value\r\nhidden 0"}};
        QVERIFY(!layout.isDefault());
        const std::string text = serializeUserLayout(layout);
        QCOMPARE(std::count(text.begin(), text.end(), '\n'), 2L);  // one line each
        TimelineUserLayout back = parseUserLayout(text, *trace);
        QCOMPARE(back.queryTracks, layout.queryTracks);
        QCOMPARE(back.options.hiddenTracks[0], uint8_t(0));  // the SQL's "hidden 0" is not a line
        back = parseUserLayout(text + "query-track long kernels\tSELECT 2\nquery-track no tab\n"
                                      "query-track \tSELECT 3\nquery-track a\tb\tc\nquery-track\n",
                               *trace);
        QCOMPARE(back.queryTracks.size(), size_t(2));
        QCOMPARE(back.queryTracks[0].sql, std::string("SELECT 2"));
        QCOMPARE(back.queryTracks[1], layout.queryTracks[1]);
    }

    // Indices past the trace, bad numbers, a rank list of another trace's size and unknown
    // lines are skipped; what is valid is kept.
    void lenientParse() {
        auto trace = threeByThree();
        const TimelineUserLayout l = parseUserLayout(
            "collapsed 1 99 -3 x\nhidden 8\npinned\nprocess-rank 2 1\ntrack-rank 0 0 0 0 0 0 0 0 0\n"
            "bookmark notanumber oops\nbookmark 42\nsomething else\n\x01\xff\ncounter-lines 3 9 -1 z\ncounter-steps\n",
            *trace);
        QCOMPARE(l.counterModes, (std::vector<uint8_t>{0, 0, 0, 2, 0, 0, 0, 0, 0}));
        QCOMPARE(l.options.collapsed, (std::vector<uint8_t>{0, 1, 0}));
        QCOMPARE(l.options.hiddenTracks[8], uint8_t(1));
        QVERIFY(l.options.processRank.empty());
        QCOMPARE(l.options.trackRank.size(), size_t(9));
        QCOMPARE(l.bookmarks.size(), size_t(1));
        QCOMPARE(l.bookmarks[0].time, TimeNs(42));
        QVERIFY(l.bookmarks[0].label.empty());
    }

    void bookmarksExport() {
        auto trace = threeByThree();
        const std::string json = bookmarksJson({{trace->startNs + 1500, "a \"quoted\" label"}}, *trace);
        QVERIFY(json.find("\"offset_ns\":1500") != std::string::npos);
        QVERIFY(json.find("a \\\"quoted\\\" label") != std::string::npos);
    }

    // Slices start at 0, 1000, ..., 8000 and the trace spans [0, 8010): with 9 buckets of
    // 890 ns, each start lands in its own bucket except where two share one.
    void density() {
        auto trace = threeByThree();
        const std::vector<uint32_t> d = eventDensity(*trace, 9);
        QCOMPARE(d.size(), size_t(9));
        QCOMPARE(std::accumulate(d.begin(), d.end(), 0u), 9u);
        for (int k = 0; k < 9; ++k) {
            const TimeNs start = 1000 * k - trace->startNs;
            const size_t bucket = size_t(start * 9 / trace->spanNs());
            QVERIFY2(d[std::min<size_t>(bucket, 8)] >= 1, qPrintable(QString::number(k)));
        }
        QVERIFY(eventDensity(*trace, 0).empty());
    }
};

QTEST_GUILESS_MAIN(UserLayoutTest)
#include "tst_user_layout.moc"
