#include "model/import/import.h"

#include "model/import/chrome_json_importer.h"
#include "model/import/logdir.h"
#include "model/import/protobuf_wire.h"
#include "model/import/run_metadata_importer.h"
#include "model/import/xspace_importer.h"

#include <zlib.h>

#include <algorithm>
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

// The first field of a protobuf message: its payload (possibly cut at the end of `head`).
// Protobuf has no magic number, so the binary formats are told apart by the shape of
// their first nested fields.
struct FirstField {
    wire::Field field;
    bool ok = false;
    size_t available = 0;  // payload bytes present in head
};

FirstField firstLengthDelimited(const uint8_t* data, size_t size) {
    FirstField out;
    const uint8_t* p = data;
    const uint8_t* end = data + size;
    uint64_t key, len;
    if (!wire::readVarint(p, end, key) || (key & 7) != wire::LengthDelimited) return out;
    if (!wire::readVarint(p, end, len)) return out;
    out.field.number = uint32_t(key >> 3);
    out.field.type = wire::LengthDelimited;
    out.field.data = p;
    out.field.size = size_t(len);
    out.available = std::min<size_t>(size_t(len), size_t(end - p));
    out.ok = len > 0;
    return out;
}

// Walks the fields present in a (possibly cut) payload; `check` accepts (number, wire type).
// True when at least one field was read and every field was accepted.
template <typename Check>
bool fieldsMatch(const uint8_t* data, size_t available, size_t declared, Check check, size_t* count = nullptr) {
    wire::Reader r(data, available);
    wire::Field f;
    size_t n = 0;
    while (r.next(f)) {
        if (!check(f)) return false;
        ++n;
    }
    if (r.error() && !(r.truncated() && available < declared)) return false;
    if (count) *count = n;
    return n > 0 || (r.truncated() && available < declared);
}

// XSpace: field 1 = XPlane { 1 varint id, 2 string name, 3 lines, 4/5 metadata maps, 6 stats }.
bool looksLikeXSpace(const std::vector<uint8_t>& head) {
    FirstField plane = firstLengthDelimited(head.data(), head.size());
    if (!plane.ok || plane.field.number != 1) return false;
    bool sawName = false, sawLines = false;
    auto check = [&](const wire::Field& f) {
        if (f.number == 1) return f.type == wire::Varint;
        if (f.number == 2) {
            sawName = true;
            return f.type == wire::LengthDelimited;
        }
        if (f.number >= 3 && f.number <= 6) {
            sawLines = sawLines || f.number == 3;
            return f.type == wire::LengthDelimited;
        }
        return false;
    };
    if (!fieldsMatch(plane.field.data, plane.available, plane.field.size, check)) return false;
    return sawName || sawLines;
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
    if (looksLikeXSpace(head)) return TraceFormat::XSpace;
    if (looksLikeRunMetadata(head.data(), head.size())) return TraceFormat::RunMetadata;
    if (error) *error = "not a trace: " + path + " is neither Chrome trace JSON, XSpace nor RunMetadata";
    return TraceFormat::Unknown;
}

ImportResult importTrace(const std::string& path, const ImportOptions& options) {
    std::string error;
    switch (detectFormat(path, &error)) {
    case TraceFormat::ChromeJson: return importChromeJson(path, options);
    case TraceFormat::XSpace: return importXSpace(path, options);
    case TraceFormat::RunMetadata: return importRunMetadata(path, options);
    case TraceFormat::Directory: return importLogdir(path, options);
    case TraceFormat::Unknown: break;
    }
    return ImportResult::failure(error);
}

}  // namespace tracescope
