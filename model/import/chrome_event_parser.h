// Parses chunks of Chrome trace events (see json_chunk_reader.h) into
// EventBatches with simdjson On-Demand. One parser per worker thread.
//
// Fast path: the whole chunk is parsed as one JSON array. If anything in it is
// wrong (invalid UTF-8, a malformed event), the batch is thrown away and the
// chunk is parsed again event by event, so one bad event costs only itself.
//
// simdjson 3.0's On-Demand front end is compiled into the caller, for the CPU
// the caller is compiled for (plain x86-64 means its slow scalar "fallback").
// So the parser is compiled twice, once with AVX2 enabled, and the factory picks
// what the running CPU supports. (Caveat: library inline functions instantiated
// in the AVX2 file are merged by the linker with other files' copies; on a CPU
// without AVX2 that could in theory pick an AVX2 copy. Every x86-64 CPU sold
// since 2013-2015 has AVX2.)
#pragma once

#include "model/import/chrome_event.h"
#include "model/import/json_chunk_reader.h"
#include "model/import/shared_string_cache.h"

#include <memory>

namespace tracescope {

class EventChunkParser {
public:
    virtual ~EventChunkParser() = default;
    // Fills `out` (cleared first) with the chunk's events. The chunk's buffer is
    // modified (brackets written around the events, bad UTF-8 replaced).
    virtual void parse(EventChunk& chunk, EventBatch& out) = 0;
};

// chunkBytes: the usual chunk size (the parser's buffers are sized for it once).
std::unique_ptr<EventChunkParser> makeEventChunkParser(SharedStrings& strings, size_t chunkBytes);

// The simdjson implementation the parser uses on this CPU ("haswell", "fallback").
const char* eventChunkParserImplementation();

}  // namespace tracescope
