#include "model/import/xspace_parse_pipeline.h"

#include <google/protobuf/io/coded_stream.h>
#if __has_include(<google/protobuf/stubs/logging.h>)
#include <google/protobuf/stubs/logging.h>
#define TRACESCOPE_HAVE_LOG_SILENCER 1
#endif

#include <climits>
#include <string>

namespace tracescope::xspace {

namespace {

// Parses bytes as `msg`. Protobuf's stream parser caps messages at 64 MB by default on some
// versions; a metadata piece with large HLO protos may exceed that, so the cap is raised.
template <typename Message>
bool parseBytes(Message& msg, const uint8_t* data, size_t size) {
    if (size > size_t(INT_MAX)) return false;
    if (size <= (size_t(64) << 20)) return msg.ParseFromArray(data, int(size));
    google::protobuf::io::CodedInputStream in(data, int(size));
    in.SetTotalBytesLimit(INT_MAX);
    return msg.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
}

}  // namespace

size_t WorkItem::bytes() const {
    if (line >= 0) return range.size();
    size_t n = 0;
    if (metadataFields)
        for (const ByteRange& r : *metadataFields) n += r.size();
    return n;
}

void parsePiece(const WorkItem& item, ParsedPiece& out, ArenaBlock block) {
#ifdef TRACESCOPE_HAVE_LOG_SILENCER
    // Damaged input (e.g. bad UTF-8 in a string) is reported by the importer as a warning;
    // protobuf's own log lines on stderr would only add noise.
    google::protobuf::LogSilencer quiet;
#endif
    google::protobuf::ArenaOptions opts;
    opts.start_block_size = 256 * 1024;
    opts.max_block_size = 8 << 20;
    out.block = std::move(block);
    if (out.block.bytes) {
        opts.initial_block = out.block.bytes.get();
        opts.initial_block_size = out.block.size;
    }
    out.arena = std::make_unique<google::protobuf::Arena>(opts);
    if (item.line >= 0) {
        out.line = google::protobuf::Arena::CreateMessage<tensorflow::profiler::XLine>(out.arena.get());
        out.ok = parseBytes(*out.line, item.data + item.range.begin, item.range.size());
        return;
    }
    out.plane = google::protobuf::Arena::CreateMessage<tensorflow::profiler::XPlane>(out.arena.get());
    const auto& fields = *item.metadataFields;
    if (fields.empty()) {
        out.ok = true;
    } else if (fields.size() == 1) {  // the usual case: maps and stats follow the lines
        out.ok = parseBytes(*out.plane, item.data + fields[0].begin, fields[0].size());
    } else {
        std::string joined;
        joined.reserve(item.bytes());
        for (const ByteRange& r : fields) joined.append(reinterpret_cast<const char*>(item.data + r.begin), r.size());
        out.ok = parseBytes(*out.plane, reinterpret_cast<const uint8_t*>(joined.data()), joined.size());
    }
}

ParsePipeline::ParsePipeline(const std::vector<WorkItem>& items, unsigned workers, const std::atomic<bool>* cancel)
    : items_(items),
      slots_(items.size()),
      state_(new std::atomic<uint8_t>[items.size()]),
      cancel_(cancel),
      window_(2 * size_t(workers) + 2) {
    for (size_t i = 0; i < items.size(); ++i) state_[i].store(0, std::memory_order_relaxed);
    for (unsigned k = 0; k < workers && items.size() > 1; ++k) threads_.emplace_back([this] { work(); });
}

ParsePipeline::~ParsePipeline() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    windowMoved_.notify_all();
    for (auto& t : threads_) t.join();
}

bool ParsePipeline::claim(size_t i) {
    uint8_t expected = 0;
    return state_[i].compare_exchange_strong(expected, 1);
}

void ParsePipeline::finishPiece(size_t i) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        state_[i].store(2);
    }
    ready_.notify_all();
}

void ParsePipeline::work() {
    for (;;) {
        const size_t i = next_.fetch_add(1);
        if (i >= items_.size()) return;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            windowMoved_.wait(lock, [&] { return stop_ || i < consumed_ + window_; });
            if (stop_) return;
        }
        if (cancel_ && cancel_->load(std::memory_order_relaxed)) return;
        if (!claim(i)) continue;  // the importing thread took it
        parse(i);
        finishPiece(i);
    }
}

ParsedPiece& ParsePipeline::acquire(size_t i) {
    if (claim(i)) {
        parse(i);
        state_[i].store(2);
        return slots_[i];
    }
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return state_[i].load() == 2; });
    return slots_[i];
}

ArenaBlock ParsePipeline::takeBlock() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!freeBlocks_.empty()) {
            ArenaBlock b = std::move(freeBlocks_.back());
            freeBlocks_.pop_back();
            return b;
        }
    }
    // Parsed events take about 3-4 times their wire size.
    ArenaBlock b;
    b.size = kBlockBytes;
    b.bytes.reset(new char[b.size]);
    return b;
}

void ParsePipeline::parse(size_t i) { parsePiece(items_[i], slots_[i], takeBlock()); }

void ParsePipeline::release(size_t i) {
    ParsedPiece& p = slots_[i];
    p.arena.reset();  // before its block goes back to the pool
    if (p.block.bytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        freeBlocks_.push_back(std::move(p.block));
    }
    p = ParsedPiece{};
}

void ParsePipeline::advance(size_t i) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        consumed_ = i;
    }
    windowMoved_.notify_all();
}

}  // namespace tracescope::xspace
