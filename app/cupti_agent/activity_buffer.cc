#include "app/cupti_agent/activity_buffer.h"

namespace tracescope::agent {

namespace {

// CUPTI's ACTIVITY_RECORD_ALIGNMENT: every record starts on 8 bytes, which the structs'
// 64-bit fields rely on.
constexpr uintptr_t kRecordAlignment = 8;

// True when the record at `at` lies wholly in buffer[0, validSize) as the struct we would
// read for its kind (its header only, for kinds we do not translate).
bool insideValidBytes(const uint8_t* buffer, size_t validSize, const uint8_t* at) {
    if (at < buffer || size_t(at - buffer) >= validSize) return false;
    if (reinterpret_cast<uintptr_t>(at) % kRecordAlignment != 0) return false;
    const size_t left = validSize - size_t(at - buffer);
    if (left < sizeof(CUpti_Activity)) return false;
    const size_t size = activityRecordSize(activityKind(reinterpret_cast<const CUpti_Activity*>(at)));
    return size <= left;
}

}  // namespace

uint64_t translateBuffer(uint8_t* buffer, size_t validSize, NextRecordFn next, ApiNameFn apiName,
                         NoteThreadFn noteThread, std::string& frames) {
    uint64_t records = 0;
    if (!buffer || !validSize) return 0;
    CUpti_Activity* record = nullptr;
    const uint8_t* previous = nullptr;
    for (;;) {
        // MAX_LIMIT_REACHED at the end, INVALID_KIND for a cut record.
        if (next(buffer, validSize, &record) != CUPTI_SUCCESS || !record) break;
        const auto* at = reinterpret_cast<const uint8_t*>(record);
        if ((previous && at <= previous) || !insideValidBytes(buffer, validSize, at)) break;
        previous = at;
        if (translateActivity(record, frames, apiName)) ++records;
        if (noteThread) noteThread(activityThreadId(record));
    }
    return records;
}

}  // namespace tracescope::agent
