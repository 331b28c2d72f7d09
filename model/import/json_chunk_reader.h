// Streams a Chrome trace JSON file and cuts its event array into chunks that
// hold only complete events, so that chunks can be parsed independently (and in
// parallel) without ever holding the whole file.
//
// The top level (array form, or object form with "traceEvents" anywhere among
// other keys) is walked by a small byte-level state machine; the event array is
// scanned 64 bytes at a time with SIMD masks (quotes, backslashes, brackets) to
// track string state and nesting depth, which is all that is needed to find
// event boundaries.
#pragma once

#include "model/import/byte_source.h"
#include "model/trace/import_warning.h"

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tracescope {

// A reusable byte buffer with one byte of headroom before data() and room for a
// closing byte plus simdjson's padding after data()[capacity].
class ChunkBuffer {
public:
    explicit ChunkBuffer(size_t capacity);
    char* data() { return mem_.get() + 1; }
    const char* data() const { return mem_.get() + 1; }
    size_t capacity() const { return capacity_; }
    // Bytes allocated from data() on (what simdjson may read).
    size_t allocatedFromData() const;

private:
    std::unique_ptr<char[]> mem_;
    size_t capacity_;
};

// Bounded set of buffers: limits memory in flight and throttles the reader.
class BufferPool {
public:
    BufferPool(size_t count, size_t capacity);
    // Blocks until a buffer is free; nullptr once closed.
    std::unique_ptr<ChunkBuffer> acquire();
    void release(std::unique_ptr<ChunkBuffer> buffer);
    // Wakes blocked callers (on error or cancel).
    void close();
    size_t bufferCapacity() const { return capacity_; }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<std::unique_ptr<ChunkBuffer>> free_;
    size_t capacity_;
    bool closed_ = false;
};

// Complete events, separated by commas and whitespace (possibly a leading or a
// trailing comma), at data()[begin, end) of an owned buffer.
struct EventChunk {
    std::unique_ptr<ChunkBuffer> buffer;
    size_t begin = 0;
    size_t end = 0;
    uint64_t fileOffset = 0;  // offset of data()[begin] in the (decompressed) JSON text
    uint64_t sequence = 0;    // chunks are numbered in file order
};

struct TopLevelValue {
    std::string key;
    std::string json;  // the value's JSON text
};

struct ReadResult {
    std::string error;                   // fatal: nothing usable
    std::vector<ImportWarning> warnings; // truncation, trailing data, skipped keys
    std::vector<TopLevelValue> metadata; // top-level keys other than traceEvents
    uint64_t totalBytes = 0;             // JSON bytes seen
    bool stopped = false;                // the sink asked to stop (error or cancel)
};

class JsonChunkReader {
public:
    // sink gets each chunk in order and returns false to stop reading.
    using Sink = std::function<bool(EventChunk&&)>;
    // Called after each read with (file bytes read, file size); returns false to stop.
    using Progress = std::function<bool(uint64_t, uint64_t)>;

    JsonChunkReader(ByteSource& source, BufferPool& pool, Sink sink, Progress progress);
    ReadResult run();

private:
    enum class Ended { ArrayClosed, Eof, Stopped, Failed };

    ByteSource& src_;
    BufferPool& pool_;
    Sink sink_;
    Progress progress_;
    ReadResult result_;

    std::unique_ptr<ChunkBuffer> buf_;
    size_t pos_ = 0;      // next byte to look at
    size_t fill_ = 0;     // bytes valid in buf_
    uint64_t base_ = 0;   // offset of buf_->data()[0] in the JSON text
    bool eof_ = false;
    uint64_t sequence_ = 0;
    bool sawEvents_ = false;
    uint64_t completeUpTo_ = 0;  // end of the last complete event or top-level value read

    uint64_t offset() const { return base_ + pos_; }
    bool readMore();          // appends data after fill_; false at the end
    bool compactAndRead();    // outer mode: drops consumed bytes, then reads
    int peek();               // next byte or -1 at the end
    void skipWhitespace();
    bool readKey(std::string& key);
    bool readValue(std::string* out, size_t cap, bool& tooLarge);
    Ended readEvents();
    bool emit(size_t begin, size_t end, size_t keepFrom);
    // Invalid JSON at `at`: an error before any event was read, else a warning.
    void fail(uint64_t at, const std::string& what);
    void failWith(uint64_t at, const std::string& error, const std::string& damage);
    void truncated();
};

}  // namespace tracescope
