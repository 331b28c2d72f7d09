// Writes the seeds of fuzz_cupti_records (tests/fuzz/corpus/cupti_records) in its input
// format (cupti_input.h), from real CUPTI 13 structs: the test scenario's three batches
// (fake_scenario.h), one record of each kind the scenario lacks, and the damaged buffers
// the agent must survive.
//   make_cupti_seeds OUT_DIR
#include "tests/cupti/fake_scenario.h"
#include "tests/fuzz/cupti_input.h"

#include <cstdio>
#include <fstream>
#include <string>

namespace {

constexpr uint64_t kT0 = 1'750'000'000'000'000'000ull;
std::string g_dir;
int g_failed = 0;

void write(const std::string& name, const std::string& bytes) {
    std::ofstream out(g_dir + "/" + name, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out) {
        std::fprintf(stderr, "make_cupti_seeds: cannot write %s/%s\n", g_dir.c_str(), name.c_str());
        g_failed = 1;
    }
}

std::string batch(int index, bool cut = false, uint8_t cutBytes = 0) {
    fake::BufferBuilder b;
    fake::buildBatch(b, index, kT0 + uint64_t(index) * 1'000'000);
    std::string out = cuptifuzz::header(cut, cutBytes);
    for (size_t at : b.offsets) cuptifuzz::appendRecord(out, b.bytes.data() + at);
    return out;
}

template <typename Record>
Record timed(CUpti_ActivityKind kind, uint64_t start, uint64_t end) {
    Record r{};
    r.kind = kind;
    r.start = start;
    r.end = end;
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_cupti_seeds OUT_DIR\n");
        return 2;
    }
    g_dir = argv[1];
    for (int b = 0; b < 3; ++b) write("batch" + std::to_string(b), batch(b));

    // The kinds the scenario does not produce.
    {
        auto k = timed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_KERNEL, kT0 + 100, kT0 + 900);
        k.name = "_Z6serialPf";
        k.correlationId = 7;
        k.streamId = 1;
        k.gridX = k.gridY = k.gridZ = 1;
        k.blockX = 128, k.blockY = k.blockZ = 1;
        std::string out = cuptifuzz::header();
        cuptifuzz::appendRecord(out, &k);
        write("kernel-serial", out);
    }
    {
        auto m = timed<CUpti_ActivityMemcpyPtoP4>(CUPTI_ACTIVITY_KIND_MEMCPY2, kT0 + 10, kT0 + 60);
        m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
        m.srcKind = m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        m.bytes = 1 << 20;
        m.deviceId = 0, m.srcDeviceId = 0, m.dstDeviceId = 1;
        m.streamId = 7;
        m.correlationId = 9;
        std::string out = cuptifuzz::header();
        cuptifuzz::appendRecord(out, &m);
        write("memcpy-peer", out);
    }
    {
        auto a = timed<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_DRIVER, kT0 + 5, kT0 + 15);
        a.cbid = 307;  // cuLaunchKernel
        a.processId = fake::kPid;
        a.threadId = fake::kTid;
        a.correlationId = 11;
        std::string out = cuptifuzz::header();
        cuptifuzz::appendRecord(out, &a);
        write("driver-api", out);
    }
    {
        auto o = timed<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD, kT0 + 20, kT0 + 400);
        o.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH;
        o.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
        o.objectId.pt.processId = fake::kPid;
        o.objectId.pt.threadId = fake::kTid;
        std::string out = cuptifuzz::header();
        cuptifuzz::appendRecord(out, &o);
        write("overhead", out);
    }

    // Damaged and unexpected records.
    {
        // Kinds we do not translate: a real one (CONTEXT), the enum's end and beyond.
        std::string out = cuptifuzz::header();
        cuptifuzz::appendOtherRecord(out, CUPTI_ACTIVITY_KIND_CONTEXT, std::string(20, '\x01'));
        cuptifuzz::appendOtherRecord(out, CUPTI_ACTIVITY_KIND_COUNT, "");
        cuptifuzz::appendOtherRecord(out, 0x7fffffff, std::string(60, '\xff'));
        auto k = timed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, kT0 + 1, kT0 + 2);
        k.name = "after_unknown";
        cuptifuzz::appendRecord(out, &k);
        write("unknown-kinds", out);
    }
    {
        // Inverted and huge times, huge ids, out-of-range enums, null names.
        std::string out = cuptifuzz::header();
        auto k = timed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, kT0 + 900, kT0 + 100);
        k.correlationId = 0xffffffffu;
        k.streamId = 0xffffffffu;
        k.deviceId = 0xffffffffu;
        cuptifuzz::appendRecord(out, &k);
        auto m = timed<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY, ~0ull, ~0ull - 1);
        m.copyKind = 0xff;
        m.srcKind = m.dstKind = 0xff;
        cuptifuzz::appendRecord(out, &m);
        auto a = timed<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_RUNTIME, 1, ~0ull);
        a.cbid = 0xffffffffu;
        a.threadId = 0xffffffffu;
        cuptifuzz::appendRecord(out, &a);
        CUpti_ActivityMarker2 mk{};
        mk.kind = CUPTI_ACTIVITY_KIND_MARKER;
        mk.flags = CUpti_ActivityFlag(CUPTI_ACTIVITY_FLAG_MARKER_END);
        mk.id = 12345;
        mk.objectKind = CUpti_ActivityObjectKind(0x7fffffff);
        cuptifuzz::appendRecord(out, &mk);
        CUpti_ActivityMemory4 mem{};
        mem.kind = CUPTI_ACTIVITY_KIND_MEMORY2;
        mem.timestamp = kT0;
        mem.memoryOperationType = CUpti_ActivityMemoryOperationType(0x7fffffff);
        mem.memoryKind = CUpti_ActivityMemoryKind(0x7fffffff);
        mem.bytes = ~0ull;
        cuptifuzz::appendRecord(out, &mem);
        CUpti_ActivityDevice5 dev{};
        dev.kind = CUPTI_ACTIVITY_KIND_DEVICE;
        dev.id = 0xffffffffu;
        dev.globalMemoryBandwidth = ~0ull;
        cuptifuzz::appendRecord(out, &dev);
        write("hostile-values", out);
    }
    {
        // A kernel name longer than one length byte can say.
        const std::string longName(300, 'k');
        auto k = timed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, kT0 + 1, kT0 + 2);
        k.name = longName.c_str();
        std::string out = cuptifuzz::header();
        cuptifuzz::appendRecord(out, &k);
        write("long-name", out);
    }
    // A buffer whose validSize ends inside its last record.
    write("cut-buffer", batch(1, true, 20));
    {
        // A kernel record shorter than CUpti_ActivityKernel10 (a layout we mis-assume) at the
        // end of the buffer.
        auto k = timed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, kT0 + 1, kT0 + 2);
        k.name = "short";
        std::string out = batch(0);
        cuptifuzz::appendRecord(out, &k, 8);
        write("short-record", out);
    }
    return g_failed;
}
