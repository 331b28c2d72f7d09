#include "app/cupti_agent/activity_buffer.h"

namespace tracescope::agent {

namespace {

// CUPTI's ACTIVITY_RECORD_ALIGNMENT: every record starts on 8 bytes, which the structs'
// 64-bit fields rely on.
constexpr uintptr_t kRecordAlignment = 8;

// Where a record starts in the buffer, or SIZE_MAX when it is off the buffer or misaligned.
size_t offsetOf(const uint8_t* buffer, size_t validSize, const CUpti_Activity* record) {
    const auto at = reinterpret_cast<uintptr_t>(record), start = reinterpret_cast<uintptr_t>(buffer);
    if (at < start || at - start >= validSize || at % kRecordAlignment != 0) return SIZE_MAX;
    return at - start;
}

// True when `room` bytes hold the struct we read for the record's kind (its header only,
// for kinds we do not translate).
bool fits(const CUpti_Activity* record, size_t room) {
    if (room < sizeof(CUpti_Activity)) return false;
    return activityRecordSize(activityKind(record)) <= room;
}

}  // namespace

uint64_t translateBuffer(uint8_t* buffer, size_t validSize, NextRecordFn next, ApiNameFn apiName,
                         NoteThreadFn noteThread, std::string& frames) {
    uint64_t records = 0;
    if (!buffer || !validSize) return 0;
    // MAX_LIMIT_REACHED at the end, INVALID_KIND for a cut record.
    CUpti_Activity* record = nullptr;
    if (next(buffer, validSize, &record) != CUPTI_SUCCESS || !record) return 0;
    size_t at = offsetOf(buffer, validSize, record);
    while (at != SIZE_MAX) {
        // The record's room ends where CUPTI's next record starts (or at validSize), which
        // tells a record shorter than the struct we would read: that one is skipped.
        CUpti_Activity* following = record;
        size_t end = validSize, nextAt = SIZE_MAX;
        if (next(buffer, validSize, &following) == CUPTI_SUCCESS && following) {
            nextAt = offsetOf(buffer, validSize, following);
            if (nextAt != SIZE_MAX && nextAt <= at) nextAt = SIZE_MAX;  // not moving forward
            if (nextAt != SIZE_MAX) end = nextAt;
        }
        if (fits(record, end - at)) {
            if (translateActivity(record, frames, apiName)) ++records;
            if (noteThread) noteThread(activityThreadId(record));
        }
        record = following;
        at = nextAt;
    }
    return records;
}

}  // namespace tracescope::agent
