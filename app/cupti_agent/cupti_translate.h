// CUPTI 13 activity records (cupti_activity.h: CUpti_ActivityKernel10, Memcpy6,
// MemcpyPtoP4, Memset4, API, Synchronization2, Marker2, MarkerData2, Memory4, Device5,
// Overhead3, CudaEvent2, Stream) as frames of our record format (model/capture/agent/agent_records.h). Pure
// translation: no CUPTI calls, so tests can feed it structs laid out by the real headers.
#pragma once

#include <cupti_activity.h>

#include <cstdint>
#include <string>

namespace tracescope::agent {

// The name of a runtime (domain 1) or driver (domain 2) API callback id, or nullptr.
using ApiNameFn = const char* (*)(uint32_t domain, uint32_t cbid);

// Appends the frame for one activity record to `out`. False (nothing appended) for kinds
// we do not translate and for records without timing (start = end = 0).
bool translateActivity(const CUpti_Activity* record, std::string& out, ApiNameFn apiName);

// The record's kind as CUPTI wrote it: any 32-bit value, also one outside CUpti_ActivityKind's
// range (read as bytes, never loaded as the enum).
uint32_t activityKind(const CUpti_Activity* record);

// The OS thread a record belongs to (API calls, thread markers, overhead), or 0.
int64_t activityThreadId(const CUpti_Activity* record);

// The CUPTI struct size of a kind we translate (0 for others): what a CUPTI 13.0 buffer
// holds for it, used by tests and the test-only fake libcupti to lay records out.
size_t activityRecordSize(uint32_t kind);

}  // namespace tracescope::agent
