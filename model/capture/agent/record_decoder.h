// The one decoder of the agent record format (agent_records.h): frames from a socket or a
// fallback file become one process's records. Incremental (bytes may arrive in any
// pieces), bounded (a frame is at most TS_AGENT_MAX_FRAME bytes; only one partial frame is
// buffered), and strict: a malformed stream stops with an error and its byte offset, and
// everything decoded before it is kept. Strings come out as valid UTF-8 (other bytes as '?').
#pragma once

#include "model/capture/agent/agent_records.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope::agent {

struct KernelEntry { KernelRecord r{}; std::string name; };
struct ApiEntry { ApiRecord r{}; std::string name; };
struct MarkerEntry { MarkerRecord r{}; std::string name, domain; };
struct MemoryEntry { MemoryRecord r{}; std::string name; };
struct DeviceEntry { DeviceRecord r{}; std::string name; };
struct StatusEntry { StatusRecord r{}; std::string message, detail; };
struct ThreadNameEntry { ThreadNameRecord r{}; std::string name; };

// Everything one agent (one process) sent.
struct AgentRecords {
    bool hasHello = false;
    HelloRecord hello{};
    std::string hostname, executable, commandLine;
    bool hasBye = false;
    ByeRecord bye{};
    std::vector<StatusEntry> statuses;
    std::vector<DroppedRecord> dropped;
    std::vector<DeviceEntry> devices;
    std::vector<KernelEntry> kernels;
    std::vector<MemcpyRecord> memcpys;
    std::vector<MemsetRecord> memsets;
    std::vector<ApiEntry> apis;
    std::vector<SyncRecord> syncs;
    std::vector<MarkerEntry> markers;
    std::vector<MarkerDataRecord> markerData;
    std::vector<MemoryEntry> memory;
    std::vector<OverheadRecord> overheads;
    std::vector<CudaEventRecord> cudaEvents;
    std::vector<StreamRecord> streams;
    std::vector<WindowRecord> windows;         // the agent's answers to Stop / Start
    std::vector<ThreadNameEntry> threadNames;  // OS thread names of host lines
    uint64_t unknownFrames = 0;  // frames of record types newer than this decoder

    // Activity records (everything but hello, bye, status, dropped, window, thread names
    // and unknown frames).
    uint64_t activityCount() const;
    // The agent's last Window frame says it stopped collecting: the records end there by
    // request, not because the process died.
    bool endedByStop() const { return !windows.empty() && windows.back().state == kWindowStopped; }
};

class RecordDecoder {
public:
    // Decodes what `bytes` completes; false once the stream is malformed (then error()).
    bool feed(std::string_view bytes);
    // The stream ended: a partial frame left over is reported by truncatedBytes().
    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    uint64_t errorOffset() const { return errorOffset_; }
    uint64_t bytesConsumed() const { return consumed_; }
    size_t truncatedBytes() const { return pending_.size(); }
    uint64_t frames() const { return frames_; }

    const AgentRecords& records() const { return records_; }
    AgentRecords& records() { return records_; }

private:
    // Decodes one whole frame; false (with error_) when malformed.
    bool decodeFrame(const char* frame, size_t size);
    bool fail(std::string message, uint64_t offset);

    AgentRecords records_;
    std::string pending_;  // bytes of an incomplete frame
    std::string error_;
    uint64_t errorOffset_ = 0;
    uint64_t consumed_ = 0;  // stream offset of pending_[0]
    uint64_t frames_ = 0;
};

// Decodes a whole stream (e.g. a fallback file). A truncated last frame is not an error:
// `truncated` tells how many bytes were cut off.
struct DecodeResult {
    AgentRecords records;
    std::string error;  // empty when the whole stream (up to a cut) was well formed
    uint64_t errorOffset = 0;
    size_t truncatedBytes = 0;
};
DecodeResult decodeRecordStream(std::string_view bytes);

// True when `bytes` starts like an agent record stream (a Hello frame with the magic).
bool looksLikeRecordStream(std::string_view bytes);

}  // namespace tracescope::agent
