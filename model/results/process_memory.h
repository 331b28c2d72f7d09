#pragma once

// How the process's allocator treats memory the analyses free. A viewer keeps running after a
// trace's results are computed, so what its jobs freed should go back to the system rather
// than stay as the process's peak.
namespace tracescope {

// Asks glibc's malloc (a no-op elsewhere) to return large freed blocks at once: blocks from
// 256 KiB up are mapped on their own and unmapped when freed (glibc otherwise raises that
// threshold as large blocks are freed, up to 32 MiB, and keeps them), the heap's free top is
// trimmed past 1 MiB, and two arenas serve all threads (each arena keeps its own free memory,
// which another thread's arena cannot reuse). Call once, before any thread starts.
void preferReturnableMemory();

// Hands the pages malloc holds free back to the system (glibc's malloc_trim; a no-op elsewhere).
void returnFreedMemory();

}  // namespace tracescope
