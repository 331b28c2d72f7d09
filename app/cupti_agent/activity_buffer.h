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
// were translated. The walk ends where the iterator says so, and also at a record that
// would be read outside the valid bytes (a cut buffer, a kind whose size we mis-assume,
// an iterator that steps backwards or off the buffer): nothing past validSize is read.
uint64_t translateBuffer(uint8_t* buffer, size_t validSize, NextRecordFn next, ApiNameFn apiName,
                         NoteThreadFn noteThread, std::string& frames);

}  // namespace tracescope::agent
