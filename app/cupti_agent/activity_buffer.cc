#include "app/cupti_agent/activity_buffer.h"

namespace tracescope::agent {

uint64_t translateBuffer(uint8_t* buffer, size_t validSize, NextRecordFn next, ApiNameFn apiName,
                         NoteThreadFn noteThread, std::string& frames) {
    uint64_t records = 0;
    if (!buffer || !validSize) return 0;
    CUpti_Activity* record = nullptr;
    for (;;) {
        // MAX_LIMIT_REACHED at the end, INVALID_KIND for a cut record.
        if (next(buffer, validSize, &record) != CUPTI_SUCCESS) break;
        if (translateActivity(record, frames, apiName)) ++records;
        if (noteThread) noteThread(activityThreadId(record));
    }
    return records;
}

}  // namespace tracescope::agent
