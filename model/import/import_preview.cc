#include "model/import/import_preview.h"

#include "model/import/byte_source.h"
#include "model/import/chrome_json_importer.h"
#include "model/import/xspace_importer.h"

namespace tracescope {

namespace {

constexpr uint64_t kStep = 8;

}  // namespace

std::vector<uint64_t> previewLimits(const std::string& path, uint64_t firstBytes) {
    const TraceFormat format = detectFormat(path);
    if (firstBytes == 0 || (format != TraceFormat::ChromeJson && format != TraceFormat::XSpace)) return {};
    std::string error;
    std::unique_ptr<ByteSource> source = ByteSource::open(path, &error);
    if (!source) return {};
    // A gzipped XSpace is inflated whole before it is read: a preview would inflate it again.
    if (format == TraceFormat::XSpace && source->compressed()) return {};
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
    switch (detectFormat(path)) {
    case TraceFormat::ChromeJson: return importChromeJson(path, options);
    case TraceFormat::XSpace: return importXSpace(path, options);
    default: return ImportResult::failure("no preview: neither Chrome JSON nor XSpace");
    }
}

}  // namespace tracescope
