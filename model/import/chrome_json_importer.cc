// Chrome Trace Event Format import: a pipeline of
//   reader (this thread): file/gzip bytes -> chunks of complete events
//   workers (options.threads): chunk -> EventBatch (simdjson On-Demand)
//   merge (whichever worker holds the turn, in chunk order): batch -> TraceBuilder
// then the assembler resolves what needs the whole file and the builder finishes.
// Memory stays bounded by a few chunk buffers plus the compact model.
#include "model/import/chrome_json_importer.h"

#include "model/import/byte_source.h"
#include "model/import/chrome_event_parser.h"
#include "model/import/chrome_trace_assembler.h"
#include "model/import/json_chunk_reader.h"
#include "model/import/memory_budget.h"
#include "model/trace/trace_builder.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>

namespace tracescope {

namespace {

// Big enough to amortize per-chunk costs, small enough to keep a few in flight.
constexpr size_t kChunkBytes = size_t(16) << 20;
constexpr size_t kMinChunkBytes = size_t(64) << 10;

// Small files get small chunks: about 16 per file (gzip inflates ~10x), so that
// fixed buffers do not dominate their memory, and both workers get some.
size_t chunkBytesFor(const ByteSource& source) {
    const uint64_t json = source.compressed() ? source.fileSize() * 10 : source.fileSize();
    return size_t(std::clamp<uint64_t>(json / 16, kMinChunkBytes, kChunkBytes));
}

// Chunks waiting for a worker.
class ChunkQueue {
public:
    void push(EventChunk&& c) {
        {
            std::lock_guard lock(mutex_);
            queue_.push_back(std::move(c));
        }
        cv_.notify_one();
    }
    // False once closed and drained.
    bool pop(EventChunk& out) {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return closed_ || !queue_.empty(); });
        if (queue_.empty()) return false;
        out = std::move(queue_.front());
        queue_.pop_front();
        return true;
    }
    void close() {
        {
            std::lock_guard lock(mutex_);
            closed_ = true;
        }
        cv_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<EventChunk> queue_;
    bool closed_ = false;
};

// Lets batches be merged strictly in chunk order by whichever worker parsed them.
class MergeTurns {
public:
    // Waits for `sequence`'s turn; false if stopped meanwhile.
    bool wait(uint64_t sequence, const std::atomic<bool>& stop) {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return next_ == sequence || stop.load(); });
        return next_ == sequence && !stop.load();
    }
    void done() {
        {
            std::lock_guard lock(mutex_);
            ++next_;
        }
        cv_.notify_all();
    }
    void wakeAll() {
        { std::lock_guard lock(mutex_); }
        cv_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    uint64_t next_ = 0;
};

}  // namespace

ImportResult importChromeJson(const std::string& path, const ImportOptions& options) {
    // TRACESCOPE_IMPORT_TIMING=1 prints the phases to stderr (for benchmarks).
    const bool timing = std::getenv("TRACESCOPE_IMPORT_TIMING") != nullptr;
    const auto t0 = std::chrono::steady_clock::now();
    auto phase = [&](const char* what) {
        if (timing)
            std::fprintf(stderr, "chrome import: %-28s %.3f s\n", what,
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    };
    std::string openError;
    std::unique_ptr<ByteSource> source = ByteSource::open(path, &openError);
    if (!source) return ImportResult::failure(openError);

    TraceBuilder builder("chrome-json");
    SharedStrings strings(builder.strings());
    ChromeTraceAssembler assembler(builder, strings);

    const unsigned workers = std::max(1u, options.threads);
    // A limited read takes a few chunks, so that it stops close to its limit.
    const size_t chunkBytes =
        options.textLimit ? std::clamp<size_t>(size_t(std::min<uint64_t>(options.textLimit / 4, kChunkBytes)),
                                               kMinChunkBytes, chunkBytesFor(*source))
                          : chunkBytesFor(*source);
    BufferPool pool(workers + 2, chunkBytes);
    ChunkQueue queue;
    MergeTurns turns;
    std::atomic<bool> stop{false};
    std::mutex failureMutex;
    std::string failure;

    MemoryGuard memory;
    std::atomic<uint64_t> fileBytesRead{0};  // as the reader last reported it
    auto stopAll = [&](std::string why) {
        {
            std::lock_guard lock(failureMutex);
            if (failure.empty()) failure = std::move(why);
        }
        stop = true;
        pool.close();
        queue.close();
        turns.wakeAll();
    };

    // One worker asked for (small imports, fuzzing): chunks are parsed and merged on this
    // thread as the reader makes them, with no thread to start or hand over to.
    const bool inline_ = options.threads <= 1;
    std::unique_ptr<EventChunkParser> inlineParser;
    EventBatch inlineBatch;
    auto processInline = [&](EventChunk&& chunk) {
        if (!inlineParser) inlineParser = makeEventChunkParser(strings, chunkBytes);
        inlineParser->parse(chunk, inlineBatch);
        pool.release(std::move(chunk.buffer));
        assembler.add(inlineBatch);
        if (assembler.importedEvents() == 0 && assembler.invalidEvents() > 0)
            stopAll("not a valid Chrome trace: invalid JSON at " + assembler.firstInvalid());
        if (memory.exceeded()) stopAll(memory.message(fileBytesRead));
    };

    auto work = [&] {
        std::unique_ptr<EventChunkParser> parser = makeEventChunkParser(strings, chunkBytes);
        EventBatch batch;
        batch.events.reserve(chunkBytes / 128);  // grown once, not per chunk
        EventChunk chunk;
        while (queue.pop(chunk)) {
            if (stop || options.cancelled()) {
                pool.release(std::move(chunk.buffer));
                continue;
            }
            parser->parse(chunk, batch);
            pool.release(std::move(chunk.buffer));  // before waiting: lets the reader go on
            if (!turns.wait(batch.sequence, stop)) continue;
            if (options.cancelled()) {
                stopAll("cancelled");
                continue;
            }
            assembler.add(batch);
            // Garbage rather than a trace: nothing imported, and what is there is not JSON.
            if (assembler.importedEvents() == 0 && assembler.invalidEvents() > 0)
                stopAll("not a valid Chrome trace: invalid JSON at " + assembler.firstInvalid());
            // Asked after each merge too: the reader's last progress comes while the chunks it
            // has read ahead (several MB each) are not parsed yet.
            if (memory.exceeded()) stopAll(memory.message(fileBytesRead));
            turns.done();
        }
    };
    std::vector<std::thread> pool_threads;
    if (!inline_)
        for (unsigned i = 0; i < workers; ++i) pool_threads.emplace_back(work);

    JsonChunkReader reader(
        *source, pool,
        [&](EventChunk&& chunk) {
            if (stop) return false;
            if (options.textLimit && chunk.fileOffset >= options.textLimit) {
                pool.release(std::move(chunk.buffer));
                return false;  // the limit is read: the events so far are the trace
            }
            if (inline_) {
                if (options.cancelled()) return false;
                processInline(std::move(chunk));
                return !stop;
            }
            queue.push(std::move(chunk));
            return true;
        },
        [&](uint64_t done, uint64_t total) {
            fileBytesRead = done;
            options.report(done, total);
            // A file whose size said it fits may still not (a gzip that inflates far more
            // than its head did, a decompression bomb): stopped here, not by the OOM killer.
            if (memory.exceeded()) stopAll(memory.message(done));
            return !options.cancelled() && !stop;
        });
    ReadResult read = reader.run();
    queue.close();
    for (auto& t : pool_threads) t.join();

    if (options.cancelled()) return ImportResult::cancel();
    if (!failure.empty()) return ImportResult::failure(failure);
    if (!read.error.empty()) return ImportResult::failure(read.error);

    phase("read, parsed and merged");
    assembler.finish(read.metadata);
    for (ImportWarning& w : read.warnings) builder.addWarning(std::move(w));
    phase("B/E, async, flows resolved");
    std::unique_ptr<Trace> trace = builder.finish(options.cancel, workers);
    phase("trace built");
    if (!trace) return ImportResult::cancel();
    // Offsets count JSON text bytes: for a .gz file, its uncompressed bytes.
    if (source->compressed())
        for (ImportWarning& w : trace->warnings) w.uncompressedOffsets = w.byteOffset.has_value();
    ImportResult result;
    result.trace = std::move(trace);
    return result;
}

}  // namespace tracescope
