#include "model/import/import_preview.h"

#include "model/import/byte_source.h"
#include "model/import/chrome_json_importer.h"

namespace tracescope {

namespace {

constexpr uint64_t kStep = 8;

}  // namespace

std::vector<uint64_t> previewLimits(const std::string& path, uint64_t firstBytes) {
    if (firstBytes == 0 || detectFormat(path) != TraceFormat::ChromeJson) return {};
    std::string error;
    std::unique_ptr<ByteSource> source = ByteSource::open(path, &error);
    if (!source) return {};
    // Gzip text is about ten times its file (as the importer's chunk sizing assumes).
    const uint64_t text = source->compressed() ? source->fileSize() * 10 : source->fileSize();
    std::vector<uint64_t> limits;
    for (uint64_t limit = firstBytes; limit <= text / kStep; limit *= kStep) limits.push_back(limit);
    return limits;
}

ImportResult importPreview(const std::string& path, uint64_t textBytes, const std::atomic<bool>* cancel) {
    ImportOptions options;
    options.cancel = cancel;
    options.threads = 1;  // the whole import has the cores
    options.textLimit = textBytes;
    // Not importTrace: its memory check is the whole file's, and the whole import makes it.
    if (detectFormat(path) != TraceFormat::ChromeJson) return ImportResult::failure("no preview: not Chrome JSON");
    return importChromeJson(path, options);
}

}  // namespace tracescope
