// XSpace (.xplane.pb) importer: TensorFlow / JAX / XLA profiler output.
//
// Planes become processes (devices first, then host threads), lines become
// thread tracks, events become slices (duration > 0) or instants (duration 0)
// with every stat (event metadata stats first, then the event's own) as args
// keyed by stat name. Launch <-> kernel flows come from `correlation_id`,
// producer -> consumer flows from `_pt/_p` and `_ct/_c`. See xspace_tracks.h
// for the process/track layout and the categories.
//
// Memory events (MemoryAllocation / MemoryDeallocation, BFC allocator TraceMes)
// are instants on the host thread track that allocated (usually the python or
// executor thread of /host:CPU), category "memory", with every stat as an arg:
// allocator_name, bytes_allocated, bytes_reserved, bytes_available,
// fragmentation, peak_bytes_in_use, requested_bytes, allocation_bytes, addr,
// tf_op, id, region_type, data_type, shape, group_id when present.
//
// Times: start and end are each rounded from ps to ns. Planes of several hosts
// are aligned on their Task Environment profile_start_time.
#pragma once

#include "model/import/import.h"

#include <string>
#include <string_view>
#include <vector>

namespace tracescope {

// One host's XSpace: a file, or serialized bytes already in memory (e.g. a capture reply).
struct XSpaceSource {
    std::string host;  // shown as "<host>: <plane>" when several hosts are imported together
    std::string path;  // read when `bytes` is empty
    std::string_view bytes;
};

// Opens one .xplane.pb file. The host name is the XSpace's own (hostnames[0]) or the file name.
ImportResult importXSpace(const std::string& path, const ImportOptions& options = {});

// Opens several hosts' XSpaces of one run as one trace, aligned on their profile start times.
ImportResult importXSpaces(const std::vector<XSpaceSource>& sources, const ImportOptions& options = {});

// The host part of a "<host>.xplane.pb" file name ("" when the name does not end so).
std::string xspaceHostFromFileName(const std::string& path);

}  // namespace tracescope
