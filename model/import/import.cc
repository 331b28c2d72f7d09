#include "model/import/import.h"

#include "model/import/chrome_json_importer.h"
#include "model/import/run_metadata_importer.h"

#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

namespace tracescope {

namespace {

// The first bytes of the file, inflated when it is gzip.
std::vector<uint8_t> peekContent(const std::string& path, std::string* error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (error) *error = "cannot open " + path;
        return {};
    }
    std::vector<uint8_t> head(64 * 1024);
    in.read(reinterpret_cast<char*>(head.data()), std::streamsize(head.size()));
    head.resize(size_t(in.gcount()));
    if (head.size() >= 2 && head[0] == 0x1f && head[1] == 0x8b) {
        std::vector<uint8_t> out(4096);
        z_stream zs{};
        if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return {};
        zs.next_in = head.data();
        zs.avail_in = uInt(head.size());
        zs.next_out = out.data();
        zs.avail_out = uInt(out.size());
        inflate(&zs, Z_SYNC_FLUSH);
        out.resize(out.size() - zs.avail_out);
        inflateEnd(&zs);
        return out;
    }
    return head;
}

bool looksLikeJson(const std::vector<uint8_t>& head) {
    size_t i = 0;
    if (head.size() >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF) i = 3;  // UTF-8 BOM
    while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r')) ++i;
    return i < head.size() && (head[i] == '{' || head[i] == '[');
}

}  // namespace

TraceFormat detectFormat(const std::string& path, std::string* error) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return TraceFormat::Directory;
    if (!std::filesystem::exists(path, ec)) {
        if (error) *error = "no such file: " + path;
        return TraceFormat::Unknown;
    }
    std::vector<uint8_t> head = peekContent(path, error);
    if (head.empty()) {
        if (error && error->empty()) *error = "empty file: " + path;
        return TraceFormat::Unknown;
    }
    if (looksLikeJson(head)) return TraceFormat::ChromeJson;
    if (error) *error = "not a trace: " + path + " is neither Chrome trace JSON, XSpace nor RunMetadata";
    return TraceFormat::Unknown;
}

ImportResult importTrace(const std::string& path, const ImportOptions& options) {
    std::string error;
    switch (detectFormat(path, &error)) {
    case TraceFormat::ChromeJson: return importChromeJson(path, options);
    case TraceFormat::RunMetadata: return importRunMetadata(path, options);
    case TraceFormat::XSpace:
    case TraceFormat::Directory:
        return ImportResult::failure("format not supported yet: " + path);
    case TraceFormat::Unknown: break;
    }
    return ImportResult::failure(error);
}

}  // namespace tracescope
