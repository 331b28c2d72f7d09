// Any SQL text over a small trace with every kind of row (nested slices, an overflow lane, async
// spans, instants, counters, flows, args with nested JSON): the virtual tables get whatever
// constraints, orders and values SQLite hands down. A query may fail; it must not crash, leak or
// run past its timeout. Every result is also made into a track and a flame graph (Add as track,
// Flame graph), whatever its columns hold. ATTACH is refused here (the fuzzer would write files); SQLite's heap is
// bounded so that a huge blob fails as out of memory.
#include "model/sql/query_flame.h"
#include "model/sql/query_track.h"
#include "model/sql/trace_database.h"
#include "model/trace/trace_builder.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

using namespace tracescope;

namespace {

std::shared_ptr<const Trace> smallTrace() {
    TraceBuilder b("fuzz");
    const ProcessIndex host = b.addProcess(ProcessKind::Host, 10, "host");
    const ProcessIndex gpu = b.addProcess(ProcessKind::Device, 0, "/device:GPU:0");
    const TrackIndex main = b.addTrack(host, TrackKind::Thread, "main", 1);
    const TrackIndex async = b.addTrack(host, TrackKind::Async, "requests", 2);
    const TrackIndex memory = b.addTrack(host, TrackKind::Counter, "Memory");
    const TrackIndex stream = b.addTrack(gpu, TrackKind::Thread, "Stream 7", 7);
    ArgsWriter args;
    args.add(b.intern("correlation"), ArgValue::integer(1));
    args.add(b.intern("cfg"), ArgValue::json(b.intern(R"({"a":[1,2.5,"x",null,true,{"b":{}}],"c":[]})")));
    args.add(b.intern("big"), ArgValue::unsignedInteger(~0ull));
    const uint32_t launch = b.addSlice(main, 10, 5, b.intern("launch"), b.intern("cuda_runtime"), args);
    b.addSlice(main, 0, 100, b.intern("step"), kEmptyString);
    b.addSlice(main, 20, 30, b.intern("op"), kEmptyString);
    b.addSlice(main, 40, 30, b.intern("partial"), kEmptyString);  // overlaps "op" partly
    b.addSlice(main, 90, 0, b.intern("open"), kEmptyString, kNoArgs, true);
    b.addSlice(async, 5, 50, b.intern("req"), kEmptyString);
    b.addSlice(async, 6, 50, b.intern("req"), kEmptyString);
    b.addInstant(main, 45, b.intern("mark"), kEmptyString, args);
    const uint32_t kernel = b.addSlice(stream, 30, 10, b.intern("kernel"), b.intern("kernel"), args);
    for (int i = 0; i < 5; ++i) b.addCounterSample(memory, i * 20, i * 1.5);
    b.addFlow(TraceBuilder::FlowEnd::ofSlice(main, launch), TraceBuilder::FlowEnd::ofSlice(stream, kernel),
              b.intern("ac2g"), b.intern("ac2g"), 1);
    return b.finish();
}

int denyAttach(void*, int action, const char*, const char*, const char*, const char*) {
    return action == SQLITE_ATTACH || action == SQLITE_DETACH ? SQLITE_DENY : SQLITE_OK;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::shared_ptr<const Trace> trace = smallTrace();
    static const bool bounded = [] {
        sqlite3_hard_heap_limit64(256ll << 20);
        return true;
    }();
    (void)bounded;
    sql::TraceDatabase db(trace);
    sqlite3_set_authorizer(db.handle(), denyAttach, nullptr);
    const std::string text(reinterpret_cast<const char*>(data), size);
    uint64_t cells = 0;
    std::unique_ptr<sql::QueryTrackBuilder> track;
    std::unique_ptr<sql::QueryFlameBuilder> flame;
    const sql::QueryOutcome out = db.run(
        text,
        [&](const std::vector<std::string>& columns) {
            track = std::make_unique<sql::QueryTrackBuilder>(*trace, columns);
            flame = std::make_unique<sql::QueryFlameBuilder>(columns);
        },
        [&](const sql::SqlRow& row) {
            for (int i = 0; i < row.size(); ++i) cells += row.text(i).size();
            track->add(row);
            flame->add(row);
            return cells < (64u << 20);
        },
        {.timeout = std::chrono::milliseconds(500)});
    if (!out.ok && out.error.empty()) {
        std::fprintf(stderr, "a failed query must say why\n");
        std::abort();
    }
    if (track && track->usable()) {
        const DerivedCounterTrack d = track->finish("fuzz", text);
        for (const DerivedSpans::Lane& lane : d.spans.lanes)
            for (size_t i = 0; i < lane.start.size(); ++i)
                if (lane.end[i] < lane.start[i] || (i && lane.start[i] < lane.start[i - 1])) {
                    std::fprintf(stderr, "a lane's boxes must be in start order and end after they start\n");
                    std::abort();
                }
    }
    if (flame && flame->usable()) {
        const CallTree tree = flame->finish();
        if (tree.maxDepth > kMaxCallDepth) {
            std::fprintf(stderr, "a flame graph deeper than the limit\n");
            std::abort();
        }
    }
    return 0;
}
