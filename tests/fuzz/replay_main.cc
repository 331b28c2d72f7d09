// A main() for the fuzz targets in builds without libFuzzer: runs the target once on every
// file named (folders: every file inside, recursively), so the corpora and the hostile
// files stay regression tests in the ordinary build.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    size_t runs = 0;
    auto runFile = [&](const fs::path& p) {
        std::ifstream in(p, std::ios::binary);
        std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
        ++runs;
    };
    for (int i = 1; i < argc; ++i) {
        std::error_code ec;
        if (fs::is_directory(argv[i], ec)) {
            for (fs::recursive_directory_iterator it(argv[i], ec), end; !ec && it != end; it.increment(ec))
                if (it->is_regular_file()) runFile(it->path());
        } else if (fs::is_regular_file(argv[i], ec)) {
            runFile(argv[i]);
        } else {
            std::fprintf(stderr, "no such file or folder: %s\n", argv[i]);
            return 2;
        }
    }
    std::printf("ran %zu inputs\n", runs);
    return 0;
}
