// One completed CUPTI activity buffer as frames of our record format: the records CUPTI's
// iterator hands out, each translated (cupti_translate.h). The iterator is a parameter (the
// agent passes cuptiActivityGetNextRecord) so that tests and the fuzz target can walk
// buffers without a live CUPTI through the same code as the agent.
#pragma once

#include "app/cupti_agent/cupti_translate.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace tracescope::agent {

// cuptiActivityGetNextRecord's signature.
using NextRecordFn = CUptiResult (*)(uint8_t* buffer, size_t validSize, CUpti_Activity** record);
// Told the OS thread of every record that has one (activityThreadId), in buffer order.
using NoteThreadFn = void (*)(int64_t threadId);

// Appends the frames of the records of buffer[0, validSize) to `frames`; returns how many
// were translated. The walk ends where the iterator says so, or where it steps backwards,
// off the buffer or off CUPTI's 8-byte alignment. A record with less room than the struct
// we read for its kind (up to the iterator's next record, or to validSize for the last:
// a cut buffer, a kind whose size we mis-assume) is skipped: nothing past validSize, and
// no part of another record, is read as a record's struct.
uint64_t translateBuffer(uint8_t* buffer, size_t validSize, NextRecordFn next, ApiNameFn apiName,
                         NoteThreadFn noteThread, std::string& frames);

}  // namespace tracescope::agent
