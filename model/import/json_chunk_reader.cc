#include "model/import/json_chunk_reader.h"

#include "model/trace/utf8.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tracescope {

namespace {

// Deeper nesting than this is not a trace (and would only exhaust a parser).
constexpr int64_t kMaxDepth = 1000;
// An event (one array element) larger than this is refused.
constexpr size_t kMaxEventBytes = size_t(512) << 20;
constexpr size_t kMaxKeyBytes = 64 * 1024;
// Top-level metadata values larger than this are not kept.
constexpr size_t kMaxMetadataBytes = 1 << 20;

constexpr size_t kNone = size_t(-1);

bool isSpace(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Scanner state carried from one 64-byte block to the next.
struct ScanState {
    int64_t depth = 0;         // nesting inside the event array (0 = between events)
    uint64_t inString = 0;     // all ones when the previous block ended inside a string
    bool escapeCarry = false;  // the previous block ended with an unescaped backslash
};

enum class BlockStop { None, ArrayEnd, TooDeep };

// Bit i set for every byte i of the block equal to the respective character.
struct BlockMasks {
    uint64_t quote = 0, backslash = 0, open = 0, close = 0;
};

inline BlockMasks blockMasks(const char* p) {
    BlockMasks m;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i lowerBit = _mm_set1_epi8(0x20);
    const __m128i open = _mm_set1_epi8(0x7B);   // '{' and '[' | 0x20
    const __m128i close = _mm_set1_epi8(0x7D);  // '}' and ']' | 0x20
    for (int k = 0; k < 4; ++k) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
        const __m128i folded = _mm_or_si128(v, lowerBit);
        const int shift = 16 * k;
        m.quote |= uint64_t(uint16_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)))) << shift;
        m.backslash |= uint64_t(uint16_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash)))) << shift;
        m.open |= uint64_t(uint16_t(_mm_movemask_epi8(_mm_cmpeq_epi8(folded, open)))) << shift;
        m.close |= uint64_t(uint16_t(_mm_movemask_epi8(_mm_cmpeq_epi8(folded, close)))) << shift;
    }
#else
    for (int i = 0; i < 64; ++i) {
        const unsigned char c = static_cast<unsigned char>(p[i]);
        const uint64_t bit = 1ull << i;
        if (c == '"') m.quote |= bit;
        if (c == '\\') m.backslash |= bit;
        if ((c | 0x20) == 0x7B) m.open |= bit;
        if ((c | 0x20) == 0x7D) m.close |= bit;
    }
#endif
    return m;
}

// Bit i = xor of bits 0..i: turns quote positions into "inside a string" spans.
inline uint64_t prefixXor(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

// Scans one 64-byte block. lastEnd gets (index + 1) of the last byte that closed an
// event (depth back to 0), stopAt the index of the array's closing bracket or of the
// bracket that nested too deep.
inline BlockStop scanBlock(const char* p, ScanState& st, int& stopAt, int& lastEnd) {
    const BlockMasks m = blockMasks(p);
    uint64_t escaped = 0;
    if (m.backslash || st.escapeCarry) {
        // Backslashes are rare in traces: resolve escape runs one by one.
        escaped = st.escapeCarry ? 1 : 0;
        st.escapeCarry = false;
        for (uint64_t b = m.backslash; b; b &= b - 1) {
            const int i = __builtin_ctzll(b);
            if ((escaped >> i) & 1) continue;  // an escaped backslash escapes nothing
            if (i == 63) st.escapeCarry = true;
            else escaped |= 1ull << (i + 1);
        }
    }
    const uint64_t quotes = m.quote & ~escaped;
    const uint64_t inString = prefixXor(quotes) ^ st.inString;
    st.inString = uint64_t(int64_t(inString) >> 63);
    uint64_t brackets = (m.open | m.close) & ~inString;
    while (brackets) {
        const int i = __builtin_ctzll(brackets);
        brackets &= brackets - 1;
        if ((m.open >> i) & 1) {
            if (++st.depth > kMaxDepth) {
                stopAt = i;
                return BlockStop::TooDeep;
            }
        } else if (--st.depth == 0) {
            lastEnd = i + 1;
        } else if (st.depth < 0) {
            stopAt = i;
            return BlockStop::ArrayEnd;
        }
    }
    return BlockStop::None;
}

}  // namespace

// ---------------------------------------------------------------------------

ChunkBuffer::ChunkBuffer(size_t capacity)
    : mem_(new char[capacity + 2 + simdjson::SIMDJSON_PADDING]), capacity_(capacity) {}

size_t ChunkBuffer::allocatedFromData() const { return capacity_ + 1 + simdjson::SIMDJSON_PADDING; }

BufferPool::BufferPool(size_t count, size_t capacity) : capacity_(capacity) {
    for (size_t i = 0; i < count; ++i) free_.push_back(nullptr);  // allocated lazily
}

std::unique_ptr<ChunkBuffer> BufferPool::acquire() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return closed_ || !free_.empty(); });
    if (closed_) return nullptr;
    std::unique_ptr<ChunkBuffer> b = std::move(free_.back());
    free_.pop_back();
    lock.unlock();
    if (!b) b = std::make_unique<ChunkBuffer>(capacity_);
    return b;
}

void BufferPool::release(std::unique_ptr<ChunkBuffer> buffer) {
    {
        std::lock_guard lock(mutex_);
        // A buffer grown for a giant event is not kept: its memory goes back now.
        if (buffer && buffer->capacity() != capacity_) buffer.reset();
        free_.push_back(std::move(buffer));
    }
    cv_.notify_one();
}

void BufferPool::close() {
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
    }
    cv_.notify_all();
}

// ---------------------------------------------------------------------------

JsonChunkReader::JsonChunkReader(ByteSource& source, BufferPool& pool, Sink sink, Progress progress)
    : src_(source), pool_(pool), sink_(std::move(sink)), progress_(std::move(progress)) {}

void JsonChunkReader::fail(uint64_t at, const std::string& what) {
    failWith(at, "invalid JSON at byte " + std::to_string(at) + ": " + what, "invalid JSON (" + what + ")");
}

void JsonChunkReader::failWith(uint64_t at, const std::string& error, const std::string& damage) {
    // Once events were handed out, a problem further on costs only the rest of the file.
    if (!sawEvents_) {
        result_.error = error;
        return;
    }
    ImportWarning w = ImportWarning::corrupted(at, damage + "; the rest of the file was not read");
    w.uncompressedOffsets = src_.compressed();
    result_.warnings.push_back(std::move(w));
}

void JsonChunkReader::truncated() {
    if (!src_.error().empty()) {
        const uint64_t at = base_ + fill_;
        failWith(at, src_.error() + " (at JSON byte " + std::to_string(at) + ")", src_.error());
        return;
    }
    ImportWarning w = ImportWarning::truncated(completeUpTo_, base_ + fill_,
                                               src_.compressedStreamTruncated() ? "the gzip stream is cut" : "");
    w.uncompressedOffsets = src_.compressed();
    result_.warnings.push_back(std::move(w));
}

bool JsonChunkReader::readMore() {
    if (eof_ || result_.stopped) return false;
    const size_t got = src_.read(buf_->data() + fill_, buf_->capacity() - fill_);
    fill_ += got;
    if (got == 0) eof_ = true;
    if (progress_ && !progress_(src_.fileBytesRead(), src_.fileSize())) result_.stopped = true;
    return got > 0 && !result_.stopped;
}

bool JsonChunkReader::compactAndRead() {
    if (pos_ > 0) {
        std::memmove(buf_->data(), buf_->data() + pos_, fill_ - pos_);
        base_ += pos_;
        fill_ -= pos_;
        pos_ = 0;
    }
    return readMore();
}

int JsonChunkReader::peek() {
    while (pos_ >= fill_)
        if (!compactAndRead()) return -1;
    return static_cast<unsigned char>(buf_->data()[pos_]);
}

void JsonChunkReader::skipWhitespace() {
    for (int c; (c = peek()) >= 0 && isSpace(c);) ++pos_;
}

bool JsonChunkReader::readKey(std::string& key) {
    key.clear();
    ++pos_;  // opening quote
    bool escape = false;
    for (int c; (c = peek()) >= 0; ++pos_) {
        if (escape) escape = false;
        else if (c == '\\') escape = true;
        else if (c == '"') {
            ++pos_;
            return true;
        }
        if (key.size() >= kMaxKeyBytes) {
            fail(offset(), "a top-level key longer than 64 KiB");
            return false;
        }
        key.push_back(char(c));
    }
    return false;
}

// Skips one JSON value (copying its text to *out while it stays under cap). Only
// strings and nesting are tracked: the value is validated later, when it is used.
bool JsonChunkReader::readValue(std::string* out, size_t cap, bool& tooLarge) {
    tooLarge = false;
    int64_t depth = 0;
    bool inString = false, escape = false;
    auto keep = [&](char c) {
        if (!out || tooLarge) return;
        if (out->size() >= cap) {
            tooLarge = true;
            out->clear();
            return;
        }
        out->push_back(c);
    };
    for (int c; (c = peek()) >= 0;) {
        if (inString) {
            keep(char(c));
            ++pos_;
            if (escape) escape = false;
            else if (c == '\\') escape = true;
            else if (c == '"') {
                inString = false;
                if (depth == 0) return true;
            }
            continue;
        }
        switch (c) {
        case '"': inString = true; break;
        case '{':
        case '[':
            if (++depth > kMaxDepth) {
                fail(offset(), "nested deeper than " + std::to_string(kMaxDepth) + " levels");
                return false;
            }
            break;
        case '}':
        case ']':
            if (depth == 0) return true;  // ends a scalar; the bracket belongs to the parent
            if (--depth == 0) {
                keep(char(c));
                ++pos_;
                return true;
            }
            break;
        case ',':
        case ' ':
        case '\t':
        case '\n':
        case '\r':
            if (depth == 0) return true;  // end of a scalar
            break;
        default: break;
        }
        keep(char(c));
        ++pos_;
    }
    return false;
}

// Hands data()[begin, end) to the sink and continues in a fresh buffer that
// starts with the bytes from keepFrom on.
bool JsonChunkReader::emit(size_t begin, size_t end, size_t keepFrom) {
    std::unique_ptr<ChunkBuffer> next = pool_.acquire();
    if (!next) {
        result_.stopped = true;
        return false;
    }
    const size_t tail = fill_ - keepFrom;
    if (tail > next->capacity() / 2) {
        // After a giant event the rest may not fit a pool buffer: keep growing room.
        pool_.release(std::move(next));
        next = std::make_unique<ChunkBuffer>(std::max(buf_->capacity(), tail * 2));
    }
    std::memcpy(next->data(), buf_->data() + keepFrom, tail);
    completeUpTo_ = base_ + end;
    EventChunk chunk;
    chunk.buffer = std::move(buf_);
    chunk.begin = begin;
    chunk.end = end;
    chunk.fileOffset = base_ + begin;
    chunk.sequence = sequence_++;
    buf_ = std::move(next);
    base_ += keepFrom;
    fill_ = tail;
    pos_ = 0;
    sawEvents_ = true;
    if (!sink_(std::move(chunk))) {
        result_.stopped = true;
        return false;
    }
    return true;
}

JsonChunkReader::Ended JsonChunkReader::readEvents() {
    ScanState st;
    size_t chunkStart = pos_;
    size_t scan = pos_;
    size_t lastBoundary = kNone;
    for (;;) {
        const char* d = buf_->data();
        bool atEnd = false;
        size_t blockEnd = fill_;
        char tailBlock[64];
        while (scan < blockEnd) {
            const char* block = d + scan;
            if (scan + 64 > fill_) {
                if (!eof_) break;  // wait for a full block
                // The last partial block: pad with spaces, which change nothing.
                std::memset(tailBlock, ' ', sizeof tailBlock);
                std::memcpy(tailBlock, d + scan, fill_ - scan);
                block = tailBlock;
                atEnd = true;
            }
            int stopAt = -1, lastEnd = -1;
            const BlockStop stop = scanBlock(block, st, stopAt, lastEnd);
            if (lastEnd >= 0) lastBoundary = scan + size_t(lastEnd);
            if (stop == BlockStop::ArrayEnd) {
                const size_t close = scan + size_t(stopAt);
                if (!emit(chunkStart, close, close + 1)) return Ended::Stopped;
                return Ended::ArrayClosed;
            }
            if (stop == BlockStop::TooDeep) {
                pos_ = scan + size_t(stopAt);
                fail(offset(), "nested deeper than " + std::to_string(kMaxDepth) + " levels");
                return Ended::Failed;
            }
            scan += 64;
            if (atEnd) break;
        }
        if (eof_) {
            // The array never closed: keep every complete event.
            if (lastBoundary != kNone && lastBoundary > chunkStart) {
                if (!emit(chunkStart, lastBoundary, fill_)) return Ended::Stopped;
            }
            return Ended::Eof;
        }
        if (fill_ == buf_->capacity()) {
            if (lastBoundary != kNone && lastBoundary > chunkStart) {
                if (!emit(chunkStart, lastBoundary, lastBoundary)) return Ended::Stopped;
                scan -= lastBoundary;
                chunkStart = 0;
                lastBoundary = kNone;
            } else if (st.depth == 0 && st.inString == 0 && scan > chunkStart) {
                // A full buffer without any object: not events. Let the parser say what it is.
                if (!emit(chunkStart, scan, scan)) return Ended::Stopped;
                scan = 0;
                chunkStart = 0;
            } else if (chunkStart > 0) {
                std::memmove(buf_->data(), buf_->data() + chunkStart, fill_ - chunkStart);
                base_ += chunkStart;
                fill_ -= chunkStart;
                scan -= chunkStart;
                chunkStart = 0;
                lastBoundary = kNone;
            } else {
                // One event fills the whole buffer: grow it.
                const size_t capacity = buf_->capacity() * 2;
                if (capacity > kMaxEventBytes) {
                    pos_ = 0;
                    fail(base_, "an event larger than " + std::to_string(kMaxEventBytes >> 20) + " MiB");
                    return Ended::Failed;
                }
                auto bigger = std::make_unique<ChunkBuffer>(capacity);
                std::memcpy(bigger->data(), buf_->data(), fill_);
                pool_.release(std::move(buf_));
                buf_ = std::move(bigger);
            }
        }
        readMore();
        if (result_.stopped) return Ended::Stopped;
    }
}

ReadResult JsonChunkReader::run() {
    buf_ = pool_.acquire();
    if (!buf_) return result_;
    auto finish = [&]() {
        result_.totalBytes = base_ + fill_;
        if (buf_) pool_.release(std::move(buf_));
        return std::move(result_);
    };
    readMore();
    if (fill_ >= 3 && std::memcmp(buf_->data(), "\xEF\xBB\xBF", 3) == 0) pos_ = 3;  // UTF-8 BOM
    skipWhitespace();
    const int first = peek();
    if (result_.stopped) return finish();
    if (first < 0) {
        result_.error = src_.error().empty() ? "empty file: no JSON in it" : src_.error();
        return finish();
    }
    auto trailing = [&]() {
        skipWhitespace();
        if (peek() >= 0) result_.warnings.push_back(ImportWarning::trailingData(offset()));
        else if (!src_.error().empty())
            result_.warnings.push_back(ImportWarning::corrupted(std::nullopt, src_.error()));
    };
    auto endOfEvents = [&](Ended e) {
        if (e == Ended::Eof) truncated();
        return e == Ended::ArrayClosed;
    };

    if (first == '[') {
        ++pos_;
        if (endOfEvents(readEvents())) trailing();
        return finish();
    }
    if (first != '{') {
        char shown[8];
        std::snprintf(shown, sizeof shown, (first >= 0x20 && first < 0x7f) ? "'%c'" : "0x%02x", first);
        result_.error =
            "not a JSON trace: expected '[' or '{' at byte " + std::to_string(offset()) + ", found " + shown;
        return finish();
    }

    ++pos_;
    std::string key, value;
    std::vector<std::string> skippedKeys;
    bool sawTraceEvents = false;
    for (;;) {
        skipWhitespace();
        int c = peek();
        if (c < 0) {
            truncated();
            break;
        }
        if (c == '}') {  // also after a trailing comma
            ++pos_;
            trailing();
            break;
        }
        if (c != '"') {
            fail(offset(), "expected a key");
            break;
        }
        if (!readKey(key)) {
            if (result_.error.empty()) truncated();
            break;
        }
        skipWhitespace();
        if (peek() != ':') {
            if (peek() < 0) truncated();
            else fail(offset(), "expected ':' after a key");
            break;
        }
        ++pos_;
        skipWhitespace();
        bool tooLarge = false;
        bool complete = true;
        if (key == "traceEvents" && peek() == '[') {
            ++pos_;
            sawTraceEvents = true;
            const Ended e = readEvents();
            if (e != Ended::ArrayClosed) {
                if (e == Ended::Eof) truncated();
                break;
            }
        } else if (key == "systemTraceEvents" || key == "samples" || key == "stackFrames" || key == "traceEvents") {
            skippedKeys.push_back(key);
            complete = readValue(nullptr, 0, tooLarge);
        } else {
            value.clear();
            complete = readValue(&value, kMaxMetadataBytes, tooLarge);
            if (complete && tooLarge) {
                result_.warnings.push_back(
                    ImportWarning::skipped("top-level key \"" + key + "\" not kept: its value is larger than 1 MiB"));
            } else if (complete) {
                sanitizeUtf8(value.data(), value.size());
                result_.metadata.push_back({key, value});
            }
        }
        if (!complete) {
            if (result_.error.empty() && !result_.stopped) truncated();
            break;
        }
        completeUpTo_ = offset();
        skipWhitespace();
        c = peek();
        if (c == ',') {
            ++pos_;
            continue;
        }
        if (c == '}') {
            ++pos_;
            trailing();
            break;
        }
        if (c < 0) truncated();
        else fail(offset(), "expected ',' or '}'");
        break;
    }
    if (!sawTraceEvents && result_.error.empty())
        result_.warnings.push_back(ImportWarning::skipped("the JSON object has no \"traceEvents\" array: no events"));
    if (!skippedKeys.empty()) {
        std::string w = "skipped top-level key(s) not supported:";
        for (const auto& k : skippedKeys) w += " " + k;
        result_.warnings.push_back(ImportWarning::skipped(std::move(w)));
    }
    return finish();
}

}  // namespace tracescope
