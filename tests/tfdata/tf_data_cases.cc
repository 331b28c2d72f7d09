#include "tests/tfdata/tf_data_cases.h"

namespace tracescope::tfdatacases {

namespace {

int64_t us(double t) { return kCaseT0 + int64_t(t * 1000); }
int64_t dur(double d) { return int64_t(d * 1000); }

// An iterator GetNext event: display name "Iterator::<last>", long_name the full name.
void iterator(xspace::LineWriter& line, const std::string& longName, uint64_t id, uint64_t parentId, double start,
              double duration) {
    xspace::StatWriter s = line.addEvent(longName, us(start), dur(duration));
    s.add("id", id);
    if (parentId) s.add("parent_id", parentId);
}

void handOff(xspace::LineWriter& line, const std::string& name, uint64_t elementId, double start, double duration) {
    line.addEvent(name, us(start), dur(duration)).add("element_id", elementId);
}

// XProf and TF write the long name as the event metadata's name and the short one as its
// display name; the writer interns metadata by name, so set the display names afterwards.
void setDisplayNames(xspace::PlaneWriter& plane) {
    for (auto& [id, md] : *plane.proto()->mutable_event_metadata()) {
        const std::string& name = md.name();
        if (name.rfind("Iterator::", 0) != 0) continue;
        const size_t last = name.rfind("::");
        if (last > std::string("Iterator").size()) md.set_display_name("Iterator::" + name.substr(last + 2));
    }
}

}  // namespace

// Iterators: 1 Root, 2 Prefetch (async), 3 BatchV2, 4 ParallelMapV2 (async), 5 Range.
// Call 1, main thread: Root [1000, 1900), Prefetch [1010, 1890) with PrefetchConsume(100) at 1880.
//   Prefetch thread: PrefetchProduce(100) [1020, 1870) > BatchV2 [1025, 1865), which calls
//   ParallelMapV2 [1030, 1430) (consumes 200 at 1425) and [1440, 1860) (consumes 201 at 1855).
//   Worker 1: ParallelMapProduce(200) [1032, 1422) > Range [1034, 1040), then the map function.
//   Worker 2: ParallelMapProduce(201) [1040, 1855) > Range [1042, 1050), then the map function:
//   this Range ran before the second ParallelMapV2 call (no overlap with it).
//   By hand: Root total 900, self 900-880 = 20; Prefetch 880, self 880-840 = 40; BatchV2 840,
//   self 840-400-420 = 20; ParallelMapV2 total 820 (2 calls), self (400-6)+(420-0) = 814;
//   Range total 14 (2 calls), self 14. All blocking (Range through its first call).
//   Bottleneck: ParallelMapV2, 814 us.
// Call 2, main thread: Root [3000, 3030), Prefetch [3005, 3025) with PrefetchConsume(101) at 3020.
//   Its element was made ahead: PrefetchProduce(101) [1900, 2500) > BatchV2 [1902, 2497) >
//   ParallelMapV2 [1905, 2195) (consumes 202) and [2200, 2490) (consumes 203); Range [1907, 1912)
//   in ParallelMapProduce(202) [1906, 2191) and Range [2203, 2207) in ParallelMapProduce(203)
//   [2201, 2486). By hand: Root 30, self 10; Prefetch 20, self 20 (BatchV2 does not overlap it);
//   BatchV2 595, self 595-290-290 = 15, not blocking; ParallelMapV2 580, self 285+286 = 571,
//   not blocking; Range 9, not blocking. Bottleneck: Prefetch, 20 us.
// Pipeline: 2 calls, min 30, avg 465, max 900 us, 1 slow call.
xspace::SpaceWriter mapBatchPrefetch() {
    xspace::SpaceWriter space;
    space.addHostname("worker-0");
    xspace::PlaneWriter& host = space.addPlane(1, "/host:CPU");
    const std::string root = "Iterator::Root", prefetch = root + "::Prefetch", batch = prefetch + "::BatchV2",
                      pmap = batch + "::ParallelMapV2", range = pmap + "::Range";
    xspace::LineWriter main = host.addLine(100, "python3");
    xspace::LineWriter bg = host.addLine(101, "tf_data_prefetch");
    xspace::LineWriter w1 = host.addLine(102, "tf_data_map_worker_1");
    xspace::LineWriter w2 = host.addLine(103, "tf_data_map_worker_2");

    // Call 1.
    main.addEvent("IteratorGetNextOp::DoCompute", us(995), dur(910));
    iterator(main, root, 1, 0, 1000, 900);
    iterator(main, prefetch, 2, 1, 1010, 880);
    handOff(main, "PrefetchConsume", 100, 1880, 5);
    handOff(bg, "PrefetchProduce", 100, 1020, 850);
    iterator(bg, batch, 3, 2, 1025, 840);
    iterator(bg, pmap, 4, 3, 1030, 400);
    handOff(bg, "ParallelMapConsume", 200, 1425, 3);
    iterator(bg, pmap, 4, 3, 1440, 420);
    handOff(bg, "ParallelMapConsume", 201, 1855, 3);
    handOff(w1, "ParallelMapProduce", 200, 1032, 390);
    iterator(w1, range, 5, 4, 1034, 6);
    w1.addEvent("MapFunction", us(1041), dur(380));
    handOff(w2, "ParallelMapProduce", 201, 1040, 815);
    iterator(w2, range, 5, 4, 1042, 8);
    w2.addEvent("MapFunction", us(1051), dur(799));

    // The element of call 2, made ahead.
    handOff(bg, "PrefetchProduce", 101, 1900, 600);
    iterator(bg, batch, 3, 2, 1902, 595);
    iterator(bg, pmap, 4, 3, 1905, 290);
    handOff(bg, "ParallelMapConsume", 202, 2190, 2);
    iterator(bg, pmap, 4, 3, 2200, 290);
    handOff(bg, "ParallelMapConsume", 203, 2485, 2);
    handOff(w1, "ParallelMapProduce", 202, 1906, 285);
    iterator(w1, range, 5, 4, 1907, 5);
    w1.addEvent("MapFunction", us(1913), dur(277));
    handOff(w2, "ParallelMapProduce", 203, 2201, 285);
    iterator(w2, range, 5, 4, 2203, 4);
    w2.addEvent("MapFunction", us(2208), dur(277));

    // Call 2.
    main.addEvent("IteratorGetNextOp::DoCompute", us(2998), dur(34));
    iterator(main, root, 1, 0, 3000, 30);
    iterator(main, prefetch, 2, 1, 3005, 20);
    handOff(main, "PrefetchConsume", 101, 3020, 2);
    setDisplayNames(host);
    return space;
}

// Iterators: 11 Root, 12 Prefetch, 13 BatchV2, 14 Shuffle, 15 Interleave, 16 TensorSlice (the
// file names, Interleave's input), 17 and 18 TFRecord (one per file, "Interleave[0]"/"[1]").
// Call 1, main thread: Root [10000, 12000), Prefetch [10010, 11990), PrefetchConsume(300) at 11980.
//   Prefetch thread: PrefetchProduce(300) [9000, 11950) > BatchV2 [9005, 11945) (started before the
//   call: overlaps Prefetch for 11945-10010 = 1935) > Shuffle [9010, 10410) > Interleave
//   [9020, 10400) > TensorSlice [9025, 9035), TFRecord#17 [9040, 10390); Shuffle [10420, 11920) >
//   Interleave [10425, 11915) > TFRecord#18 [10430, 11910).
//   By hand: Root 2000, self 20; Prefetch 1980, self 1980-1935 = 45; BatchV2 2940, self
//   2940-1400-1500 = 40; Shuffle 2900 (2 calls), self 20+10 = 30; Interleave 2870 (2 calls),
//   self (1380-10-1350)+(1490-1480) = 30; TensorSlice 10; TFRecord#17 1350; TFRecord#18 1480.
//   All blocking. Bottleneck: TFRecord#18, 1480 us (a slow source).
// Call 2: Root [13000, 13025), Prefetch [13005, 13020), PrefetchConsume(301) at 13015; made ahead:
//   PrefetchProduce(301) [12000, 12500) > BatchV2 [12002, 12497) > Shuffle [12005, 12485) >
//   Interleave [12008, 12478) > TFRecord#18 [12010, 12470). By hand: Root self 10, Prefetch self 15
//   (blocking); the rest not blocking. Bottleneck: Prefetch, 15 us.
// Pipeline: 2 calls, min 25, avg 1012.5, max 2000 us, 1 slow call.
xspace::SpaceWriter interleaveTfRecord() {
    xspace::SpaceWriter space;
    space.addHostname("worker-0");
    xspace::PlaneWriter& host = space.addPlane(1, "/host:CPU");
    const std::string root = "Iterator::Root", prefetch = root + "::Prefetch", batch = prefetch + "::BatchV2",
                      shuffle = batch + "::Shuffle", inter = shuffle + "::Interleave",
                      files = inter + "::TensorSlice", rec0 = inter + "[0]::TFRecord", rec1 = inter + "[1]::TFRecord";
    xspace::LineWriter main = host.addLine(200, "python3");
    xspace::LineWriter bg = host.addLine(201, "tf_data_prefetch");

    iterator(main, root, 11, 0, 10000, 2000);
    iterator(main, prefetch, 12, 11, 10010, 1980);
    handOff(main, "PrefetchConsume", 300, 11980, 5);
    handOff(bg, "PrefetchProduce", 300, 9000, 2950);
    iterator(bg, batch, 13, 12, 9005, 2940);
    iterator(bg, shuffle, 14, 13, 9010, 1400);
    iterator(bg, inter, 15, 14, 9020, 1380);
    iterator(bg, files, 16, 15, 9025, 10);
    iterator(bg, rec0, 17, 15, 9040, 1350);
    iterator(bg, shuffle, 14, 13, 10420, 1500);
    iterator(bg, inter, 15, 14, 10425, 1490);
    iterator(bg, rec1, 18, 15, 10430, 1480);

    handOff(bg, "PrefetchProduce", 301, 12000, 500);
    iterator(bg, batch, 13, 12, 12002, 495);
    iterator(bg, shuffle, 14, 13, 12005, 480);
    iterator(bg, inter, 15, 14, 12008, 470);
    iterator(bg, rec1, 18, 15, 12010, 460);

    iterator(main, root, 11, 0, 13000, 25);
    iterator(main, prefetch, 12, 11, 13005, 15);
    handOff(main, "PrefetchConsume", 301, 13015, 2);
    setDisplayNames(host);
    return space;
}

// host-a: Root#21 [1000, 1300) > Prefetch#22 [1005, 1295) > PrefetchConsume(1) at 1290; Prefetch
//   thread: PrefetchProduce(1) [1100, 1290) > Map#23 [1102, 1287) > Range#24 [1105, 1110).
//   By hand: Root self 300-290 = 10; Prefetch self 290-185 = 105; Map self 185-5 = 180; Range 5.
//   Bottleneck: Map, 180 us.
xspace::SpaceWriter twoHostsA() {
    xspace::SpaceWriter space;
    space.addHostname("host-a");
    xspace::PlaneWriter& host = space.addPlane(1, "/host:CPU");
    const std::string root = "Iterator::Root", prefetch = root + "::Prefetch", map = prefetch + "::Map",
                      range = map + "::Range";
    xspace::LineWriter main = host.addLine(300, "python3");
    xspace::LineWriter bg = host.addLine(301, "tf_data_prefetch");
    iterator(main, root, 21, 0, 1000, 300);
    iterator(main, prefetch, 22, 21, 1005, 290);
    handOff(main, "PrefetchConsume", 1, 1290, 2);
    handOff(bg, "PrefetchProduce", 1, 1100, 190);
    iterator(bg, map, 23, 22, 1102, 185);
    iterator(bg, range, 24, 23, 1105, 5);
    setDisplayNames(host);
    return space;
}

// host-b: Root#21 [1000, 1080) > Prefetch#22 [1002, 1078) > PrefetchConsume(1) at 1075; Prefetch
//   thread: PrefetchProduce(1) [900, 1070) > Filter#23 [901, 1069) > Range#24 [1010, 1050).
//   By hand: Root self 80-76 = 4; Prefetch self 76-(1069-1002) = 9; Filter self 168-40 = 128;
//   Range 40. Bottleneck: Filter, 128 us.
xspace::SpaceWriter twoHostsB() {
    xspace::SpaceWriter space;
    space.addHostname("host-b");
    xspace::PlaneWriter& host = space.addPlane(1, "/host:CPU");
    const std::string root = "Iterator::Root", prefetch = root + "::Prefetch", filter = prefetch + "::Filter",
                      range = filter + "::Range";
    xspace::LineWriter main = host.addLine(400, "python3");
    xspace::LineWriter bg = host.addLine(401, "tf_data_prefetch");
    iterator(main, root, 21, 0, 1000, 80);
    iterator(main, prefetch, 22, 21, 1002, 76);
    handOff(main, "PrefetchConsume", 1, 1075, 2);
    handOff(bg, "PrefetchProduce", 1, 900, 170);
    iterator(bg, filter, 23, 22, 901, 168);
    iterator(bg, range, 24, 23, 1010, 40);
    setDisplayNames(host);
    return space;
}

xspace::SpaceWriter cycle() {
    xspace::SpaceWriter space;
    space.addHostname("worker-0");
    xspace::PlaneWriter& host = space.addPlane(1, "/host:CPU");
    xspace::LineWriter main = host.addLine(600, "python3");
    handOff(main, "PrefetchProduce", 1, 0, 100);
    iterator(main, "Iterator::Root", 5, 6, 1, 98);
    iterator(main, "Iterator::Root::Prefetch", 6, 5, 2, 96);
    handOff(main, "PrefetchConsume", 1, 50, 2);
    setDisplayNames(host);
    return space;
}

xspace::SpaceWriter noTfData() {
    xspace::SpaceWriter space;
    space.addHostname("worker-0");
    xspace::PlaneWriter& host = space.addPlane(1, "/host:CPU");
    xspace::LineWriter main = host.addLine(500, "python3");
    main.addEvent("train", us(0), dur(1000)).add("step_num", int64_t(0));
    main.addEvent("MatMul:MatMul", us(10), dur(500));
    return space;
}

// Root -> Prefetch -> BatchV2 -> Map as XProf's trace JSON writes it (stats as strings, the
// short name shown and the long one in long_name): one call. Main thread: Root#1 [1000, 1900) us
// > Prefetch#2 [1010, 1890). Prefetch thread: BatchV2#3 [1025, 1865) > Map#4 [1030, 1860).
// With hand-offs (an exporter that keeps XProf's internal events): PrefetchProduce(element 100)
// [1020, 1870) around BatchV2, PrefetchConsume(100) [1880, 1885) in Prefetch.
std::string xprofJsonPrefetchMap(bool handOffs) {
    auto it = [](const char* shortName, const char* longName, int id, int parent, const char* tid, int ts, int dur) {
        return std::string(R"({"ph":"X","pid":701,"tid":)") + tid + R"(,"ts":)" + std::to_string(ts) +
               R"(,"dur":)" + std::to_string(dur) + R"(,"name":"Iterator::)" + shortName +
               R"(","args":{"long_name":")" + longName + R"(","id":")" + std::to_string(id) + R"(","parent_id":")" +
               std::to_string(parent) + R"("}},)" + "\n";
    };
    std::string s = R"({"displayTimeUnit":"ns","metadata":{"highres-ticks":true},"traceEvents":[
{"ph":"M","pid":701,"name":"process_name","args":{"name":"worker-0 /host:CPU"}},
{"ph":"M","pid":701,"tid":1,"name":"thread_name","args":{"name":"python3"}},
{"ph":"M","pid":701,"tid":2,"name":"thread_name","args":{"name":"tf_data_prefetch"}},
)";
    s += it("Root", "Iterator::Root", 1, 0, "1", 1000, 900);
    s += it("Prefetch", "Iterator::Root::Prefetch", 2, 1, "1", 1010, 880);
    s += it("BatchV2", "Iterator::Root::Prefetch::BatchV2", 3, 2, "2", 1025, 840);
    s += it("Map", "Iterator::Root::Prefetch::BatchV2::Map", 4, 3, "2", 1030, 830);
    if (handOffs)
        s += R"({"ph":"X","pid":701,"tid":2,"ts":1020,"dur":850,"name":"PrefetchProduce","args":{"element_id":"100"}},
{"ph":"X","pid":701,"tid":1,"ts":1880,"dur":5,"name":"PrefetchConsume","args":{"element_id":"100"}},
)";
    return s + "{}]}";
}

}  // namespace tracescope::tfdatacases
