#include "model/sql/trace_tables.h"

#include "model/sql/arg_rows.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <string_view>

namespace tracescope::sql {

namespace {

void resultText(sqlite3_context* ctx, std::string_view s) {
    // An empty view may have no data at all: SQLite would take a null pointer for NULL.
    if (s.empty()) return sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
    sqlite3_result_text(ctx, s.data(), int(std::min<size_t>(s.size(), std::numeric_limits<int>::max())),
                        SQLITE_STATIC);  // the trace's strings outlive every query
}
void resultCopiedText(sqlite3_context* ctx, const std::string& s) {
    sqlite3_result_text(ctx, s.data(), int(std::min<size_t>(s.size(), std::numeric_limits<int>::max())),
                        SQLITE_TRANSIENT);
}
void resultArgSet(sqlite3_context* ctx, TrackIndex t, ArgsOffset offset) {
    if (offset == kNoArgs) sqlite3_result_null(ctx);
    else sqlite3_result_int64(ctx, argSetId(t, offset));
}

// The per-track rows a cursor walks: a track's slices, instants or counter samples, each
// sorted by time.
enum class RowKind { Slice, Instant, Sample };

// Calls f with the track's sorted times of that kind (slices and instants keep them in a
// TimeColumn, counters in a vector).
template <typename F>
decltype(auto) withTimesOf(const Track& t, RowKind k, F&& f) {
    switch (k) {
    case RowKind::Slice: return f(t.slices.start);
    case RowKind::Instant: return f(t.instants.time);
    case RowKind::Sample: return f(t.counter.time);
    }
    return f(t.slices.start);
}

TimeNs timeOf(const Track& t, RowKind k, uint32_t row) {
    return withTimesOf(t, k, [row](const auto& times) { return TimeNs(times[row]); });
}

// Walks the rows of the tracks a scan needs, one track after another or merged in time order,
// narrowed by id, track, a time window, a name and a depth.
class TrackRowsCursor : public SqlCursor {
public:
    struct Columns {
        int id = -1, ts = -1, track = -1, name = -1, depth = -1;
    };
    TrackRowsCursor(const Trace& trace, const TraceRowIds& ids, SqlScanState& scan, RowKind kind, Columns columns)
        : trace_(trace), ids_(ids), scan_(scan), kind_(kind), columns_(columns) {}

    void filter(const std::vector<SqlConstraint>& constraints, bool orderedByTime) override {
        runs_.clear();
        heap_.clear();
        eof_ = true;
        nameId_ = kNoIndex;
        depth_ = -1;
        int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
        int64_t id = -1, trackKey = -1;
        bool byId = false, byTrack = false;
        for (const SqlConstraint& c : constraints) {
            int64_t v = 0;
            if (c.column == columns_.id && integerKeyOf(c, v)) {
                byId = true;
                id = v;
            } else if (c.column == columns_.track && integerKeyOf(c, v)) {
                if (byTrack && trackKey != v) return;  // track_id = 1 AND track_id = 2
                byTrack = true;
                trackKey = v;
            } else if (c.column == columns_.ts) {
                if (lowerBoundOf(c, v)) lo = std::max(lo, v);
                if (upperBoundOf(c, v)) hi = std::min(hi, v);
            } else if (c.column == columns_.name && c.op == SQLITE_INDEX_CONSTRAINT_EQ &&
                       sqlite3_value_type(c.value) == SQLITE_TEXT) {
                const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(c.value));
                const StringId found =
                    trace_.strings.find(std::string_view(text ? text : "", size_t(sqlite3_value_bytes(c.value))));
                if (found == kNoIndex) return;  // no event has that name
                nameId_ = found;
            } else if (c.column == columns_.depth && integerKeyOf(c, v)) {
                if (v < 0 || v > kSliceDepthMask) return;
                depth_ = int(v);
            }
        }
        if (lo > hi) return;
        if (byId) {
            TrackIndex t = 0;
            uint32_t i = 0;
            if (!locate(id, t, i) || (byTrack && int64_t(t) != trackKey)) return;
            runs_.push_back({t, i, i + 1});
        } else {
            TrackIndex first = 0, last = TrackIndex(trace_.tracks.size());
            if (byTrack) {
                if (trackKey < 0 || trackKey >= int64_t(trace_.tracks.size())) return;
                first = TrackIndex(trackKey);
                last = first + 1;
            }
            for (TrackIndex t = first; t < last; ++t) {
                withTimesOf(trace_.tracks[t], kind_, [&](const auto& times) {
                    if (times.empty()) return;
                    const auto b = lo == std::numeric_limits<int64_t>::min()
                                       ? times.begin()
                                       : std::lower_bound(times.begin(), times.end(), lo);
                    const auto e = hi == std::numeric_limits<int64_t>::max() ? times.end()
                                                                              : std::upper_bound(b, times.end(), hi);
                    if (b < e) runs_.push_back({t, uint32_t(b - times.begin()), uint32_t(e - times.begin())});
                });
            }
        }
        runsStarted();
        merged_ = orderedByTime && runs_.size() > 1;
        if (merged_) {
            for (size_t k = 0; k < runs_.size(); ++k)
                if (settle(k)) heap_.push_back(k);
            std::make_heap(heap_.begin(), heap_.end(), later());
            if (heap_.empty()) return;
            current_ = heap_.front();
        } else {
            current_ = 0;
            while (current_ < runs_.size() && !settle(current_)) ++current_;
            if (current_ == runs_.size()) return;
        }
        eof_ = false;
        rowEmitted(current_, runs_[current_].pos);
    }

    bool eof() const override { return eof_; }

    void next() override {
        if (eof_) return;
        ++runs_[current_].pos;
        if (merged_) {
            std::pop_heap(heap_.begin(), heap_.end(), later());
            heap_.pop_back();
            if (settle(current_)) {
                heap_.push_back(current_);
                std::push_heap(heap_.begin(), heap_.end(), later());
            }
            if (heap_.empty()) {
                eof_ = true;
                return;
            }
            current_ = heap_.front();
        } else {
            while (current_ < runs_.size() && !settle(current_)) ++current_;
            if (current_ == runs_.size()) {
                eof_ = true;
                return;
            }
        }
        rowEmitted(current_, runs_[current_].pos);
    }

    int64_t rowid() const override { return idOf(track(), row()); }

protected:
    struct Run {
        TrackIndex track;
        uint32_t pos, end;
    };
    TrackIndex track() const { return runs_[current_].track; }
    uint32_t row() const { return runs_[current_].pos; }
    const Track& trackData() const { return trace_.tracks[track()]; }

    int64_t idOf(TrackIndex t, uint32_t i) const {
        switch (kind_) {
        case RowKind::Slice: return ids_.slice(t, i);
        case RowKind::Instant: return ids_.instant(t, i);
        case RowKind::Sample: return ids_.sample(t, i);
        }
        return 0;
    }

    // Hooks for the slice table's parents: runs were made; a row was passed over or emitted.
    virtual void runsStarted() {}
    virtual void rowPassed(size_t, uint32_t) {}
    virtual void rowEmitted(size_t, uint32_t) {}

    const Trace& trace_;
    const TraceRowIds& ids_;
    SqlScanState& scan_;
    std::vector<Run> runs_;
    size_t current_ = 0;

private:
    bool locate(int64_t id, TrackIndex& t, uint32_t& i) const {
        switch (kind_) {
        case RowKind::Slice: return ids_.sliceAt(id, t, i);
        case RowKind::Instant: return ids_.instantAt(id, t, i);
        case RowKind::Sample: return ids_.sampleAt(id, t, i);
        }
        return false;
    }

    bool keep(const Track& t, uint32_t i) const {
        if (nameId_ != kNoIndex) {
            const StringId n = kind_ == RowKind::Slice ? t.slices.name[i] : t.instants.name[i];
            if (n != nameId_) return false;
        }
        if (depth_ >= 0 && kind_ == RowKind::Slice && t.slices.depth(i) != depth_) return false;
        return true;
    }

    // Moves run k to its next row that passes the filters; false when it has none.
    bool settle(size_t k) {
        Run& r = runs_[k];
        const Track& t = trace_.tracks[r.track];
        for (uint32_t passed = 0; r.pos < r.end; ++r.pos) {
            if (keep(t, r.pos)) return true;
            rowPassed(k, r.pos);
            if (++passed % 65536 == 0 && scan_.stop) {
                r.pos = r.end;  // cancelled: next() reports the interrupt
                return false;
            }
        }
        return false;
    }

    // Heap order: the run whose row starts first on top; ties by track order.
    struct Later {
        const TrackRowsCursor* c;
        bool operator()(size_t a, size_t b) const {
            const TimeNs ta = timeOf(c->trace_.tracks[c->runs_[a].track], c->kind_, c->runs_[a].pos);
            const TimeNs tb = timeOf(c->trace_.tracks[c->runs_[b].track], c->kind_, c->runs_[b].pos);
            return ta != tb ? ta > tb : a > b;
        }
    };
    Later later() const { return Later{this}; }

    RowKind kind_;
    Columns columns_;
    std::vector<size_t> heap_;
    bool merged_ = false;
    bool eof_ = true;
    StringId nameId_ = kNoIndex;
    int depth_ = -1;
};

// slice: id, ts, dur, track_id, depth, parent_id, name, category, arg_set_id.
class SliceCursor final : public TrackRowsCursor {
public:
    SliceCursor(const Trace& trace, const TraceRowIds& ids, SqlScanState& scan)
        : TrackRowsCursor(trace, ids, scan, RowKind::Slice, {.id = 0, .ts = 1, .track = 3, .name = 6, .depth = 4}) {}

    void column(sqlite3_context* ctx, int col) override {
        const SliceColumns& s = trackData().slices;
        const uint32_t i = row();
        switch (col) {
        case 0: sqlite3_result_int64(ctx, ids_.slice(track(), i)); break;
        case 1: sqlite3_result_int64(ctx, s.start[i]); break;
        case 2: sqlite3_result_int64(ctx, s.duration[i]); break;
        case 3: sqlite3_result_int64(ctx, track()); break;
        case 4: sqlite3_result_int64(ctx, s.depth(i)); break;
        case 5: {
            const uint32_t p = parent();
            if (p == kNoIndex) sqlite3_result_null(ctx);
            else sqlite3_result_int64(ctx, ids_.slice(track(), p));
            break;
        }
        case 6: resultText(ctx, trace_.str(s.name[i])); break;
        case 7: resultText(ctx, trace_.str(s.category[i])); break;
        case 8: resultArgSet(ctx, track(), s.args[i]); break;
        default: sqlite3_result_null(ctx);
        }
    }

private:
    // Parents come from a stack per run (the last slice seen at each depth), kept only once
    // parent_id was asked for: a lookup by id that does not ask pays nothing for it.
    void runsStarted() override {
        stacks_.assign(runs_.size(), {});
        ready_.assign(runs_.size(), false);
        parentKnown_ = false;
    }
    void rowPassed(size_t k, uint32_t i) override {
        if (ready_[k]) push(k, i);
    }
    void rowEmitted(size_t k, uint32_t i) override {
        parentKnown_ = ready_[k];
        if (parentKnown_) parent_ = push(k, i);
    }

    // Pushes slice i on run k's stack; returns its parent (kNoIndex for none).
    uint32_t push(size_t k, uint32_t i) {
        const Track& t = trace_.tracks[runs_[k].track];
        if (t.kind != TrackKind::Thread) return kNoIndex;  // async lanes do not nest
        std::vector<uint32_t>& stack = stacks_[k];
        const size_t d = t.slices.depth(i);
        if (stack.size() > d) stack.resize(d);
        const uint32_t parent = d > 0 && stack.size() == d ? stack[d - 1] : kNoIndex;
        stack.resize(d, kNoIndex);
        stack.push_back(i);
        return parent;
    }

    uint32_t parent() {
        if (parentKnown_) return parent_;
        // First ask on this run: the stack of the slices before the current one. Walking back,
        // the first slice met at each smaller depth is the open one at that depth (slices of a
        // thread track nest by depth); it ends at a root.
        const Run& r = runs_[current_];
        const Track& t = trackData();
        std::vector<uint32_t>& stack = stacks_[current_];
        stack.clear();
        if (t.kind == TrackKind::Thread) {
            size_t minDepth = std::numeric_limits<size_t>::max();
            for (uint32_t j = r.pos; j-- > 0 && minDepth > 0;) {
                const size_t d = t.slices.depth(j);
                if (d >= minDepth) continue;
                if (stack.size() <= d) stack.resize(d + 1, kNoIndex);
                stack[d] = j;
                minDepth = d;
            }
        }
        ready_[current_] = true;
        parent_ = push(current_, r.pos);
        parentKnown_ = true;
        return parent_;
    }

    std::vector<std::vector<uint32_t>> stacks_;
    std::vector<bool> ready_;
    bool parentKnown_ = false;
    uint32_t parent_ = kNoIndex;
};

// instant: id, ts, track_id, name, category, arg_set_id.
class InstantCursor final : public TrackRowsCursor {
public:
    InstantCursor(const Trace& trace, const TraceRowIds& ids, SqlScanState& scan)
        : TrackRowsCursor(trace, ids, scan, RowKind::Instant, {.id = 0, .ts = 1, .track = 2, .name = 3}) {}
    void column(sqlite3_context* ctx, int col) override {
        const InstantColumns& s = trackData().instants;
        const uint32_t i = row();
        switch (col) {
        case 0: sqlite3_result_int64(ctx, ids_.instant(track(), i)); break;
        case 1: sqlite3_result_int64(ctx, s.time[i]); break;
        case 2: sqlite3_result_int64(ctx, track()); break;
        case 3: resultText(ctx, trace_.str(s.name[i])); break;
        case 4: resultText(ctx, trace_.str(s.category[i])); break;
        case 5: resultArgSet(ctx, track(), s.args[i]); break;
        default: sqlite3_result_null(ctx);
        }
    }
};

// counter: id, ts, track_id, value.
class CounterCursor final : public TrackRowsCursor {
public:
    CounterCursor(const Trace& trace, const TraceRowIds& ids, SqlScanState& scan)
        : TrackRowsCursor(trace, ids, scan, RowKind::Sample, {.id = 0, .ts = 1, .track = 2}) {}
    void column(sqlite3_context* ctx, int col) override {
        const CounterSeries& s = trackData().counter;
        const uint32_t i = row();
        switch (col) {
        case 0: sqlite3_result_int64(ctx, ids_.sample(track(), i)); break;
        case 1: sqlite3_result_int64(ctx, s.time[i]); break;
        case 2: sqlite3_result_int64(ctx, track()); break;
        case 3: sqlite3_result_double(ctx, s.value[i]); break;
        default: sqlite3_result_null(ctx);
        }
    }
};

// A small table of n rows numbered 0..n-1; `narrow` may turn a constraint into the list of the
// only rows that can match it.
class ListCursor final : public SqlCursor {
public:
    using Column = std::function<void(sqlite3_context*, size_t row, int col)>;
    using Narrow = std::function<bool(const SqlConstraint&, std::vector<size_t>& rows)>;
    ListCursor(size_t n, Column column, Narrow narrow)
        : n_(n), column_(std::move(column)), narrow_(std::move(narrow)) {}

    void filter(const std::vector<SqlConstraint>& constraints, bool) override {
        pos_ = 0;
        listed_ = false;
        rows_.clear();
        for (const SqlConstraint& c : constraints) {
            std::vector<size_t> rows;
            if (!narrow_ || !narrow_(c, rows)) continue;
            if (listed_) {  // both narrow: the rows in both lists
                std::vector<size_t> both;
                for (size_t r : rows)
                    if (std::find(rows_.begin(), rows_.end(), r) != rows_.end()) both.push_back(r);
                rows_ = std::move(both);
            } else {
                rows_ = std::move(rows);
                listed_ = true;
            }
        }
    }
    bool eof() const override { return pos_ >= (listed_ ? rows_.size() : n_); }
    void next() override { ++pos_; }
    void column(sqlite3_context* ctx, int col) override { column_(ctx, rowNumber(), col); }
    int64_t rowid() const override { return int64_t(rowNumber()); }

private:
    size_t rowNumber() const { return listed_ ? rows_[pos_] : pos_; }
    size_t n_;
    Column column_;
    Narrow narrow_;
    bool listed_ = false;
    std::vector<size_t> rows_;
    size_t pos_ = 0;
};

// `column = key` on a table whose rows are 0..n-1 by that column: the one row, or none.
bool keyRow(const SqlConstraint& c, size_t n, std::vector<size_t>& rows) {
    int64_t key = 0;
    if (!integerKeyOf(c, key)) return false;
    if (key >= 0 && uint64_t(key) < n) rows.push_back(size_t(key));
    return true;
}

// args: arg_set_id, flat_key, key, int_value, string_value, real_value, value_type.
// One arg set (arg_set_id = X) or every set of every track, each once.
class ArgsCursor final : public SqlCursor {
public:
    ArgsCursor(const Trace& trace, SqlScanState& scan) : trace_(trace), scan_(scan) {}

    void filter(const std::vector<SqlConstraint>& constraints, bool) override {
        rows_.clear();
        sets_.clear();
        pos_ = set_ = 0;
        track_ = 0;
        one_ = false;
        rowid_ = 0;
        for (const SqlConstraint& c : constraints) {
            int64_t id = 0;
            if (c.column != 0 || !integerKeyOf(c, id)) continue;
            one_ = true;
            TrackIndex t = 0;
            ArgsOffset offset = 0;
            if (argSetOf(trace_, id, t, offset)) {
                track_ = t;
                sets_.push_back(offset);
            }
            break;
        }
        if (!one_) {
            track_ = 0;
            collectSets();
        }
        load();
    }
    bool eof() const override { return pos_ >= rows_.size(); }
    void next() override {
        ++rowid_;
        if (++pos_ < rows_.size()) return;
        ++set_;
        load();
    }
    void column(sqlite3_context* ctx, int col) override {
        const ArgRow& r = rows_[pos_];
        switch (col) {
        case 0: sqlite3_result_int64(ctx, argSetId(track_, sets_[set_])); break;
        case 1: resultCopiedText(ctx, r.flatKey); break;
        case 2: resultCopiedText(ctx, r.key); break;
        case 3:
            if ((r.type == ArgRow::Type::Bool || r.type == ArgRow::Type::Int || r.type == ArgRow::Type::UInt) &&
                r.stringValue.empty())
                sqlite3_result_int64(ctx, r.intValue);
            else sqlite3_result_null(ctx);
            break;
        case 4:
            if (r.type == ArgRow::Type::String || r.type == ArgRow::Type::Json || !r.stringValue.empty())
                resultCopiedText(ctx, r.stringValue);
            else sqlite3_result_null(ctx);
            break;
        case 5:
            if (r.type == ArgRow::Type::Real) sqlite3_result_double(ctx, r.realValue);
            else sqlite3_result_null(ctx);
            break;
        case 6: sqlite3_result_text(ctx, argTypeName(r.type), -1, SQLITE_STATIC); break;
        default: sqlite3_result_null(ctx);
        }
    }
    int64_t rowid() const override { return rowid_; }

private:
    // The distinct arg offsets of track_'s slices and instants, in blob order.
    void collectSets() {
        sets_.clear();
        set_ = 0;
        if (track_ >= trace_.tracks.size()) return;
        const Track& t = trace_.tracks[track_];
        for (ArgsOffset o : t.slices.args)
            if (o != kNoArgs) sets_.push_back(o);
        for (ArgsOffset o : t.instants.args)
            if (o != kNoArgs) sets_.push_back(o);
        std::sort(sets_.begin(), sets_.end());
        sets_.erase(std::unique(sets_.begin(), sets_.end()), sets_.end());
    }
    // Rows of the set at set_ (moving on past empty sets and, scanning all, to later tracks).
    void load() {
        rows_.clear();
        pos_ = 0;
        for (;;) {
            while (set_ < sets_.size() && rows_.empty()) {
                appendArgRows(trace_, trace_.tracks[track_], sets_[set_], rows_);
                if (rows_.empty()) ++set_;
            }
            if (!rows_.empty() || one_ || scan_.stop) return;
            if (++track_ >= trace_.tracks.size()) return;
            collectSets();
        }
    }

    const Trace& trace_;
    SqlScanState& scan_;
    bool one_ = false;
    TrackIndex track_ = 0;
    std::vector<ArgsOffset> sets_;
    size_t set_ = 0;
    std::vector<ArgRow> rows_;
    size_t pos_ = 0;
    int64_t rowid_ = 0;
};

const char* processKindName(ProcessKind k) {
    switch (k) {
    case ProcessKind::Device: return "device";
    case ProcessKind::Host: return "host";
    case ProcessKind::Other: return "other";
    }
    return "other";
}

void resultIndex(sqlite3_context* ctx, uint32_t index) {
    if (index == kNoIndex) sqlite3_result_null(ctx);
    else sqlite3_result_int64(ctx, index);
}

// The utid of a track: a thread track is its own thread, an overflow lane its owner's.
uint32_t utidOf(const Trace& trace, TrackIndex t) {
    const Track& tr = trace.tracks[t];
    if (tr.kind != TrackKind::Thread) return kNoIndex;
    return tr.overflowOf != kNoIndex ? tr.overflowOf : t;
}

}  // namespace

TraceRowIds::TraceRowIds(const Trace& trace) {
    for (auto* base : {&sliceBase_, &instantBase_, &sampleBase_}) base->assign(1, 0);
    for (const Track& t : trace.tracks) {
        sliceBase_.push_back(sliceBase_.back() + int64_t(t.slices.size()));
        instantBase_.push_back(instantBase_.back() + int64_t(t.instants.size()));
        sampleBase_.push_back(sampleBase_.back() + int64_t(t.counter.size()));
    }
}

bool TraceRowIds::locate(const std::vector<int64_t>& base, int64_t id, TrackIndex& t, uint32_t& i) {
    if (id < 0 || id >= base.back()) return false;
    // The last track whose first id is <= id (tracks without rows share their first id).
    const auto it = std::upper_bound(base.begin(), base.end(), id) - 1;
    t = TrackIndex(it - base.begin());
    i = uint32_t(id - *it);
    return true;
}

const char* trackKindName(TrackKind kind) {
    switch (kind) {
    case TrackKind::Thread: return "thread";
    case TrackKind::Async: return "async";
    case TrackKind::Counter: return "counter";
    case TrackKind::Markers: return "markers";
    }
    return "thread";
}

std::vector<SqlTableDef> traceTableDefs(const Trace& trace, const TraceRowIds& ids, SqlScanState& scan) {
    const Trace* t = &trace;
    const TraceRowIds* rowIds = &ids;
    SqlScanState* state = &scan;
    std::vector<SqlTableDef> defs;

    defs.push_back({"slice",
                    "every slice (a span with a duration) of every track: thread slices nested by depth, async "
                    "spans in lanes",
                    {{"id", "INTEGER", "the slice's id (slices numbered track by track)"},
                     {"ts", "INTEGER", "start, ns on the trace's clock"},
                     {"dur", "INTEGER", "duration, ns"},
                     {"track_id", "INTEGER", "its track (track.id)"},
                     {"depth", "INTEGER", "nesting depth on a thread track (0: a root); the lane on an async track"},
                     {"parent_id", "INTEGER", "the slice that encloses it on its thread track (NULL: a root)"},
                     {"name", "TEXT", "name"},
                     {"category", "TEXT", "category (Chrome's cat; empty when none)"},
                     {"arg_set_id", "INTEGER", "its args (args.arg_set_id; NULL: none)"}},
                    {1},
                    {0, 3, 4, 6},
                    1,
                    [rowIds] { return rowIds->slices(); },
                    [t, rowIds, state] { return std::make_unique<SliceCursor>(*t, *rowIds, *state); }});

    defs.push_back({"instant",
                    "every instant event (no duration) of every track",
                    {{"id", "INTEGER", "the instant's id"},
                     {"ts", "INTEGER", "time, ns"},
                     {"track_id", "INTEGER", "its track (track.id)"},
                     {"name", "TEXT", "name"},
                     {"category", "TEXT", "category"},
                     {"arg_set_id", "INTEGER", "its args (NULL: none)"}},
                    {1},
                    {0, 2, 3},
                    1,
                    [rowIds] { return rowIds->instants(); },
                    [t, rowIds, state] { return std::make_unique<InstantCursor>(*t, *rowIds, *state); }});

    defs.push_back({"counter",
                    "every sample of every counter track",
                    {{"id", "INTEGER", "the sample's id"},
                     {"ts", "INTEGER", "time, ns"},
                     {"track_id", "INTEGER", "its counter track (track.id)"},
                     {"value", "REAL", "the value"}},
                    {1},
                    {0, 2},
                    1,
                    [rowIds] { return rowIds->samples(); },
                    [t, rowIds, state] { return std::make_unique<CounterCursor>(*t, *rowIds, *state); }});

    defs.push_back(
        {"track",
         "every track: threads (and their overflow lanes), async groups, counters, markers",
         {{"id", "INTEGER", "the track's id (its index in the trace)"},
          {"name", "TEXT", "name"},
          {"kind", "TEXT", "thread, async, counter or markers"},
          {"upid", "INTEGER", "its process (process.upid)"},
          {"utid", "INTEGER", "its thread (thread.utid) for a thread track or overflow lane; else NULL"},
          {"tid", "INTEGER", "the producer's id: tid, stream or XLine id, async group or counter key"},
          {"overflow_of", "INTEGER", "for an overflow lane (slices that overlap others only partly): its track"},
          {"event_count", "INTEGER", "slices + instants + counter samples"}},
         {},
         {0},
         -1,
         [t] { return int64_t(t->tracks.size()); },
         [t] {
             return std::make_unique<ListCursor>(
                 t->tracks.size(),
                 [t](sqlite3_context* ctx, size_t r, int col) {
                     const Track& tr = t->tracks[r];
                     switch (col) {
                     case 0: sqlite3_result_int64(ctx, int64_t(r)); break;
                     case 1: resultText(ctx, tr.name); break;
                     case 2: sqlite3_result_text(ctx, trackKindName(tr.kind), -1, SQLITE_STATIC); break;
                     case 3: resultIndex(ctx, tr.process); break;
                     case 4: resultIndex(ctx, utidOf(*t, TrackIndex(r))); break;
                     case 5: sqlite3_result_int64(ctx, tr.tid); break;
                     case 6: resultIndex(ctx, tr.overflowOf); break;
                     case 7:
                         sqlite3_result_int64(ctx,
                                              int64_t(tr.slices.size() + tr.instants.size() + tr.counter.size()));
                         break;
                     default: sqlite3_result_null(ctx);
                     }
                 },
                 [t](const SqlConstraint& c, std::vector<size_t>& rows) {
                     return c.column == 0 && keyRow(c, t->tracks.size(), rows);
                 });
         }});

    // Threads: the thread tracks (not their overflow lanes); utid is the track's id.
    auto threads = std::make_shared<std::vector<TrackIndex>>();
    for (TrackIndex i = 0; i < trace.tracks.size(); ++i)
        if (trace.tracks[i].kind == TrackKind::Thread && trace.tracks[i].overflowOf == kNoIndex) threads->push_back(i);
    defs.push_back({"thread",
                    "every thread (a CPU thread, a GPU stream, an XSpace line)",
                    {{"utid", "INTEGER", "the thread's id (the id of its track)"},
                     {"tid", "INTEGER", "the producer's thread id (stream or line id)"},
                     {"name", "TEXT", "name"},
                     {"upid", "INTEGER", "its process (process.upid)"}},
                    {},
                    {0},
                    -1,
                    [threads] { return int64_t(threads->size()); },
                    [t, threads] {
                        return std::make_unique<ListCursor>(
                            threads->size(),
                            [t, threads](sqlite3_context* ctx, size_t r, int col) {
                                const TrackIndex ti = (*threads)[r];
                                const Track& tr = t->tracks[ti];
                                switch (col) {
                                case 0: sqlite3_result_int64(ctx, ti); break;
                                case 1: sqlite3_result_int64(ctx, tr.tid); break;
                                case 2: resultText(ctx, tr.name); break;
                                case 3: resultIndex(ctx, tr.process); break;
                                default: sqlite3_result_null(ctx);
                                }
                            },
                            [threads](const SqlConstraint& c, std::vector<size_t>& rows) {
                                int64_t key = 0;
                                if (c.column != 0 || !integerKeyOf(c, key)) return false;
                                const auto it = std::lower_bound(threads->begin(), threads->end(), key,
                                                                 [](TrackIndex a, int64_t k) { return a < k; });
                                if (it != threads->end() && int64_t(*it) == key) rows.push_back(it - threads->begin());
                                return true;
                            });
                    }});

    defs.push_back({"process",
                    "every process: devices (GPUs, TPUs), host processes, others",
                    {{"upid", "INTEGER", "the process's id (its index in the trace)"},
                     {"pid", "INTEGER", "the producer's pid (XSpace: the plane id)"},
                     {"name", "TEXT", "name as the timeline shows it"},
                     {"kind", "TEXT", "device, host or other"},
                     {"host", "TEXT", "the host it ran on, when known"},
                     {"labels", "TEXT", "extra labels (process_labels)"}},
                    {},
                    {0},
                    -1,
                    [t] { return int64_t(t->processes.size()); },
                    [t] {
                        return std::make_unique<ListCursor>(
                            t->processes.size(),
                            [t](sqlite3_context* ctx, size_t r, int col) {
                                const Process& p = t->processes[r];
                                switch (col) {
                                case 0: sqlite3_result_int64(ctx, int64_t(r)); break;
                                case 1: sqlite3_result_int64(ctx, p.pid); break;
                                case 2: resultText(ctx, p.name); break;
                                case 3: sqlite3_result_text(ctx, processKindName(p.kind), -1, SQLITE_STATIC); break;
                                case 4: resultText(ctx, p.host); break;
                                case 5: resultText(ctx, p.labels); break;
                                default: sqlite3_result_null(ctx);
                                }
                            },
                            [t](const SqlConstraint& c, std::vector<size_t>& rows) {
                                return c.column == 0 && keyRow(c, t->processes.size(), rows);
                            });
                    }});

    defs.push_back(
        {"flow",
         "every flow arrow between two slices (a launch and its kernel, a producer and its consumer)",
         {{"id", "INTEGER", "the flow's id"},
          {"slice_out", "INTEGER", "the slice it leaves (slice.id)"},
          {"slice_in", "INTEGER", "the slice it points at (slice.id)"},
          {"name", "TEXT", "name"},
          {"category", "TEXT", "category"}},
         {},
         {0, 1, 2},
         -1,
         [t] { return int64_t(t->flows.size()); },
         [t, rowIds] {
             return std::make_unique<ListCursor>(
                 t->flows.size(),
                 [t, rowIds](sqlite3_context* ctx, size_t r, int col) {
                     const Flow& f = t->flows[r];
                     switch (col) {
                     case 0: sqlite3_result_int64(ctx, int64_t(r)); break;
                     case 1: sqlite3_result_int64(ctx, rowIds->slice(f.from.track, f.from.index)); break;
                     case 2: sqlite3_result_int64(ctx, rowIds->slice(f.to.track, f.to.index)); break;
                     case 3: resultText(ctx, t->str(t->flowName(f))); break;
                     case 4: resultText(ctx, t->str(t->flowCategory(f))); break;
                     default: sqlite3_result_null(ctx);
                     }
                 },
                 [t, rowIds](const SqlConstraint& c, std::vector<size_t>& rows) {
                     if (c.column == 0) return keyRow(c, t->flows.size(), rows);
                     int64_t id = 0;
                     if ((c.column != 1 && c.column != 2) || !integerKeyOf(c, id)) return false;
                     SliceRef s;
                     if (!rowIds->sliceAt(id, s.track, s.index)) return true;  // no such slice: no flow
                     for (uint32_t f : c.column == 1 ? t->flowsFrom(s) : t->flowsTo(s)) rows.push_back(f);
                     return true;
                 });
         }});

    defs.push_back({"args",
                    "the args of slices and instants, one row per value; nested values one row per leaf",
                    {{"arg_set_id", "INTEGER", "the arg set (slice.arg_set_id, instant.arg_set_id)"},
                     {"flat_key", "TEXT", "the key without array indices (\"shape\" for \"shape[0]\")"},
                     {"key", "TEXT", "the key as in the file; nested keys joined with '.', array items [i]"},
                     {"int_value", "INTEGER", "the value of an int, uint or bool (0/1)"},
                     {"string_value", "TEXT", "the value of a string (or JSON text that did not parse)"},
                     {"real_value", "REAL", "the value of a real"},
                     {"value_type", "TEXT", "int, uint, real, string, bool, json or null"}},
                    {},
                    {0},
                    -1,
                    [rowIds] { return rowIds->slices() + rowIds->instants(); },
                    [t, state] { return std::make_unique<ArgsCursor>(*t, *state); }});

    // The trace's metadata, and the facts the importer set.
    auto metadata = std::make_shared<std::vector<std::pair<std::string, std::string>>>(trace.metadata);
    metadata->insert(metadata->begin(), {{"trace_format", trace.format},
                                         {"origin_ns", std::to_string(trace.originNs)},
                                         {"start_ns", std::to_string(trace.startNs)},
                                         {"end_ns", std::to_string(trace.endNs)}});
    defs.push_back({"metadata",
                    "the trace's metadata (key, value as text): its format, clock origin and span, and what the "
                    "file recorded",
                    {{"name", "TEXT", "key"}, {"value", "TEXT", "value (JSON text for structured values)"}},
                    {},
                    {},
                    -1,
                    [metadata] { return int64_t(metadata->size()); },
                    [metadata] {
                        return std::make_unique<ListCursor>(
                            metadata->size(),
                            [metadata](sqlite3_context* ctx, size_t r, int col) {
                                resultText(ctx, col == 0 ? (*metadata)[r].first : (*metadata)[r].second);
                            },
                            nullptr);
                    }});
    return defs;
}

}  // namespace tracescope::sql
