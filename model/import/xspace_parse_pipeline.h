// Parses the pieces of one or more XSpaces (plane metadata, runs of line events)
// on worker threads while the importing thread converts earlier pieces in order.
// Each piece gets its own protobuf Arena, freed as soon as it is converted, so
// at most a small window of pieces is in memory besides the file itself.
#pragma once

#include "model/import/xspace_layout.h"
#include "model/proto/xplane.pb.h"

#include <google/protobuf/arena.h>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tracescope::xspace {

struct WorkItem {
    const uint8_t* data = nullptr;  // the XSpace bytes the ranges refer to
    uint32_t source = 0;            // index of the XSpace
    uint32_t plane = 0;             // index in that XSpace's layout
    int32_t line = -1;              // -1: the plane's metadata; else the line of an event run
    ByteRange range;                // the event run (line >= 0)
    uint32_t keepEvents = UINT32_MAX;  // line >= 0: the run's events converted (a preview keeps its first)
    const std::vector<ByteRange>* metadataFields = nullptr;  // line < 0
    size_t bytes() const;
};

// First block of a piece's arena, reused from piece to piece: fresh memory for every
// piece would cost a page fault per 4 KB touched (the biggest cost of parsing otherwise).
struct ArenaBlock {
    std::unique_ptr<char[]> bytes;
    size_t size = 0;
};

struct ParsedPiece {
    ArenaBlock block;  // declared before the arena: the arena must go first
    std::unique_ptr<google::protobuf::Arena> arena;
    tensorflow::profiler::XPlane* plane = nullptr;  // a metadata piece: maps and plane stats only
    tensorflow::profiler::XLine* line = nullptr;    // an event run: events only
    bool ok = false;
};

// Parses one piece (also used directly for pieces needed up front), in `block` when given.
void parsePiece(const WorkItem& item, ParsedPiece& out, ArenaBlock block = {});

// Event runs are cut at this many wire bytes, so a run's parsed form fits one arena block.
inline constexpr size_t kRunBytes = 64 * 1024;

class ParsePipeline {
public:
    static constexpr size_t kBlockBytes = 1 << 20;

    ParsePipeline(const std::vector<WorkItem>& items, unsigned workers, const std::atomic<bool>* cancel);
    ~ParsePipeline();
    ParsePipeline(const ParsePipeline&) = delete;
    ParsePipeline& operator=(const ParsePipeline&) = delete;

    // The parsed piece i; call with i = 0, 1, 2, ... (parses it here if no worker has started it).
    ParsedPiece& acquire(size_t i);
    // Lets workers run ahead up to a window past i.
    void advance(size_t i);
    // Frees piece i.
    void release(size_t i);

private:
    const std::vector<WorkItem>& items_;
    std::vector<ParsedPiece> slots_;
    std::unique_ptr<std::atomic<uint8_t>[]> state_;  // 0 free, 1 being parsed, 2 parsed
    const std::atomic<bool>* cancel_;
    std::atomic<size_t> next_{0};
    size_t consumed_ = 0;
    size_t window_;
    bool stop_ = false;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::condition_variable windowMoved_;
    std::vector<std::thread> threads_;
    std::vector<ArenaBlock> freeBlocks_;

    ArenaBlock takeBlock();
    void parse(size_t i);

    bool claim(size_t i);
    void finishPiece(size_t i);
    void work();
};

}  // namespace tracescope::xspace
