#include "model/capture/agent/record_decoder.h"

#include "model/trace/utf8.h"

#include <cstring>

namespace tracescope::agent {

uint64_t AgentRecords::activityCount() const {
    return devices.size() + kernels.size() + memcpys.size() + memsets.size() + apis.size() + syncs.size() +
           markers.size() + markerData.size() + memory.size() + overheads.size() + cudaEvents.size() + streams.size();
}

namespace {

// Reads a record's fixed part (zero-filled when the sender's is shorter) and its strings.
class PayloadReader {
public:
    PayloadReader(const char* payload, size_t length, size_t fixedSize)
        : p_(payload), length_(length), fixedSize_(fixedSize), at_(fixedSize) {}

    template <typename Fixed>
    Fixed fixed() const {
        Fixed out;
        std::memset(&out, 0, sizeof out);
        std::memcpy(&out, p_, fixedSize_ < sizeof out ? fixedSize_ : sizeof out);
        return out;
    }
    // The next string; false when it runs past the payload.
    bool string(std::string& out) {
        uint32_t n = 0;
        if (length_ - at_ < sizeof n) return false;
        std::memcpy(&n, p_ + at_, sizeof n);
        at_ += sizeof n;
        if (length_ - at_ < n) return false;
        out.assign(p_ + at_, n);
        at_ += n;
        // Names become protobuf strings in the XSpace, which must be UTF-8.
        sanitizeUtf8(out.data(), out.size());
        return true;
    }
    bool done() const { return at_ == length_; }

private:
    const char* p_;
    size_t length_, fixedSize_, at_;
};

}  // namespace

bool RecordDecoder::fail(std::string message, uint64_t offset) {
    error_ = std::move(message);
    errorOffset_ = offset;
    pending_.clear();
    return false;
}

bool RecordDecoder::feed(std::string_view bytes) {
    if (!error_.empty()) return false;
    // Whole frames straight from `bytes` where possible; only a partial frame is copied.
    std::string_view in = bytes;
    if (!pending_.empty()) {
        // Complete the header first, then the frame.
        size_t need = sizeof(FrameHeader);
        if (pending_.size() >= need) {
            FrameHeader h;
            std::memcpy(&h, pending_.data(), sizeof h);
            need += h.length;
        }
        while (!in.empty()) {
            const size_t take = std::min(need - pending_.size(), in.size());
            pending_.append(in.data(), take);
            in.remove_prefix(take);
            if (pending_.size() < need) break;
            if (need == sizeof(FrameHeader)) {
                FrameHeader h;
                std::memcpy(&h, pending_.data(), sizeof h);
                if (h.length > TS_AGENT_MAX_FRAME)
                    return fail("frame of " + std::to_string(h.length) + " bytes (more than the limit)", consumed_);
                need += h.length;
                if (pending_.size() < need) continue;
            }
            if (!decodeFrame(pending_.data(), pending_.size())) return false;
            consumed_ += pending_.size();
            pending_.clear();
            break;
        }
        if (!pending_.empty()) return true;
    }
    while (in.size() >= sizeof(FrameHeader)) {
        FrameHeader h;
        std::memcpy(&h, in.data(), sizeof h);
        if (h.length > TS_AGENT_MAX_FRAME)
            return fail("frame of " + std::to_string(h.length) + " bytes (more than the limit)", consumed_);
        const size_t size = sizeof h + size_t(h.length);
        if (in.size() < size) break;
        if (!decodeFrame(in.data(), size)) return false;
        consumed_ += size;
        in.remove_prefix(size);
    }
    pending_.assign(in.data(), in.size());
    return true;
}

bool RecordDecoder::decodeFrame(const char* frame, size_t size) {
    FrameHeader h;
    std::memcpy(&h, frame, sizeof h);
    const char* payload = frame + sizeof h;
    const size_t length = size - sizeof h;
    if (h.fixedSize > length)
        return fail("frame's fixed part (" + std::to_string(h.fixedSize) + " bytes) is longer than the frame",
                    consumed_);
    if (frames_ == 0 && h.type != kRecHello) return fail("the stream does not start with a hello frame", consumed_);
    if (frames_ > 0 && h.type == kRecHello) return fail("a second hello frame", consumed_);
    ++frames_;
    PayloadReader r(payload, length, h.fixedSize);
    auto bad = [&] { return fail("record strings run past the frame", consumed_); };
    AgentRecords& out = records_;
    switch (h.type) {
    case kRecHello: {
        out.hello = r.fixed<HelloRecord>();
        if (h.fixedSize < 8 || out.hello.magic != TS_AGENT_MAGIC)
            return fail("not a TraceScope agent record stream (bad magic)", consumed_);
        if (!r.string(out.hostname) || !r.string(out.executable) || !r.string(out.commandLine)) return bad();
        out.hasHello = true;
        break;
    }
    case kRecBye:
        out.bye = r.fixed<ByeRecord>();
        out.hasBye = true;
        break;
    case kRecStatus: {
        StatusEntry e;
        e.r = r.fixed<StatusRecord>();
        if (!r.string(e.message) || !r.string(e.detail)) return bad();
        out.statuses.push_back(std::move(e));
        break;
    }
    case kRecDropped: out.dropped.push_back(r.fixed<DroppedRecord>()); break;
    case kRecDevice: {
        DeviceEntry e;
        e.r = r.fixed<DeviceRecord>();
        if (!r.string(e.name)) return bad();
        out.devices.push_back(std::move(e));
        break;
    }
    case kRecKernel: {
        KernelEntry e;
        e.r = r.fixed<KernelRecord>();
        if (!r.string(e.name)) return bad();
        out.kernels.push_back(std::move(e));
        break;
    }
    case kRecMemcpy: out.memcpys.push_back(r.fixed<MemcpyRecord>()); break;
    case kRecMemset: out.memsets.push_back(r.fixed<MemsetRecord>()); break;
    case kRecApi: {
        ApiEntry e;
        e.r = r.fixed<ApiRecord>();
        if (!r.string(e.name)) return bad();
        out.apis.push_back(std::move(e));
        break;
    }
    case kRecSync: out.syncs.push_back(r.fixed<SyncRecord>()); break;
    case kRecMarker: {
        MarkerEntry e;
        e.r = r.fixed<MarkerRecord>();
        if (!r.string(e.name) || !r.string(e.domain)) return bad();
        out.markers.push_back(std::move(e));
        break;
    }
    case kRecMarkerData: out.markerData.push_back(r.fixed<MarkerDataRecord>()); break;
    case kRecMemory: {
        MemoryEntry e;
        e.r = r.fixed<MemoryRecord>();
        if (!r.string(e.name)) return bad();
        out.memory.push_back(std::move(e));
        break;
    }
    case kRecOverhead: out.overheads.push_back(r.fixed<OverheadRecord>()); break;
    case kRecWindow: out.windows.push_back(r.fixed<WindowRecord>()); break;
    case kRecCudaEvent: out.cudaEvents.push_back(r.fixed<CudaEventRecord>()); break;
    case kRecStream: out.streams.push_back(r.fixed<StreamRecord>()); break;
    case kRecThreadName: {
        ThreadNameEntry e;
        e.r = r.fixed<ThreadNameRecord>();
        if (!r.string(e.name)) return bad();
        out.threadNames.push_back(std::move(e));
        break;
    }
    default: ++out.unknownFrames; break;
    }
    return true;
}

DecodeResult decodeRecordStream(std::string_view bytes) {
    RecordDecoder d;
    d.feed(bytes);
    DecodeResult result;
    result.error = d.error();
    result.errorOffset = d.errorOffset();
    result.truncatedBytes = d.truncatedBytes();
    result.records = std::move(d.records());
    return result;
}

bool looksLikeRecordStream(std::string_view bytes) {
    if (bytes.size() < sizeof(FrameHeader) + sizeof(uint32_t)) return false;
    FrameHeader h;
    std::memcpy(&h, bytes.data(), sizeof h);
    uint32_t magic = 0;
    std::memcpy(&magic, bytes.data() + sizeof h, sizeof magic);
    return h.type == kRecHello && magic == TS_AGENT_MAGIC;
}

}  // namespace tracescope::agent
