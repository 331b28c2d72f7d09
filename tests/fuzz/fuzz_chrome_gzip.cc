// Chrome trace JSON inside gzip. The first byte picks how the rest becomes a file:
//   0-63    the rest gzip-compressed (the JSON text through the inflating reader)
//   64-127  the rest compressed, then cut at a point given by the second byte
//   128-191 the rest compressed, then one byte flipped at a point given by the second byte
//   192-255 the rest as it is (a raw .gz stream, possibly hostile)
#include "model/import/chrome_json_importer.h"
#include "tests/fuzz/fuzz_support.h"

#include <zlib.h>

#include <string>

using namespace tracescope;

namespace {

std::string gzip(const uint8_t* data, size_t size) {
    z_stream zs{};
    deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&zs, uLong(size)) + 64, '\0');
    zs.next_in = const_cast<Bytef*>(data);
    zs.avail_in = uInt(size);
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = uInt(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(out.size() - zs.avail_out);
    deflateEnd(&zs);
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    const uint8_t mode = data[0], where = data[1];
    std::string bytes;
    if (mode >= 192) {
        bytes.assign(reinterpret_cast<const char*>(data + 1), size - 1);
    } else {
        bytes = gzip(data + 2, size - 2);
        const size_t at = bytes.size() * where / 256;
        if (mode >= 128) {
            if (!bytes.empty()) bytes[at] = char(bytes[at] ^ (1 + (mode & 63)));
        } else if (mode >= 64) {
            bytes.resize(at);
        }
    }
    const std::string path =
        fuzz::writeScratchFile(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), ".json.gz");
    ImportResult r = importChromeJson(path, fuzz::fuzzImportOptions());
    if (r.ok()) (void)r.trace->counts();
    return 0;
}
