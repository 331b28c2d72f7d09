#include "model/import/agent_records_importer.h"

#include "model/capture/agent/record_decoder.h"
#include "model/capture/agent/records_to_xspace.h"
#include "model/import/xspace_importer.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

namespace tracescope {

ImportResult importAgentRecords(const std::string& path, const ImportOptions& options) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return ImportResult::failure("cannot open " + path + ": " + std::strerror(errno));
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    options.report(bytes.size(), bytes.size());
    agent::DecodeResult d = agent::decodeRecordStream(bytes);
    if (!d.records.hasHello)
        return ImportResult::failure(path + ": not a TraceScope agent record file" +
                                     (d.error.empty() ? std::string() : " (" + d.error + ")"));
    const std::string xspace = agent::recordsToXSpaceBytes(d.records);
    std::vector<XSpaceSource> one{{d.records.hostname, "", xspace}};
    ImportResult r = importXSpaces(one, options);
    if (!r.ok()) return r;
    if (!d.error.empty())
        r.trace->warnings.push_back(ImportWarning::corrupted(d.errorOffset, d.error + " (records after it skipped)"));
    else if (d.truncatedBytes)
        r.trace->warnings.push_back(ImportWarning::truncated(bytes.size() - d.truncatedBytes, bytes.size(),
                                                             "the agent's record file ends inside a record"));
    return r;
}

}  // namespace tracescope
