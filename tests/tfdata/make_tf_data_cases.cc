// Writes the hand-built tf.data traces of tf_data_cases.h to a folder, to open them in the viewer
// or the CLI:
//   make_tf_data_cases OUT_DIR
//     OUT_DIR/map_batch_prefetch.xplane.pb
//     OUT_DIR/interleave_tfrecord.xplane.pb
//     OUT_DIR/two_hosts/host-a.xplane.pb, host-b.xplane.pb   (open the folder: one run, two hosts)
//     OUT_DIR/no_tf_data.xplane.pb
#include "tests/tfdata/tf_data_cases.h"

#include <cstdio>
#include <filesystem>

using namespace tracescope;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_tf_data_cases OUT_DIR\n");
        return 2;
    }
    const std::filesystem::path out(argv[1]);
    std::filesystem::create_directories(out / "two_hosts");
    const std::pair<std::filesystem::path, xspace::SpaceWriter> files[] = {
        {out / "map_batch_prefetch.xplane.pb", tfdatacases::mapBatchPrefetch()},
        {out / "interleave_tfrecord.xplane.pb", tfdatacases::interleaveTfRecord()},
        {out / "two_hosts" / "host-a.xplane.pb", tfdatacases::twoHostsA()},
        {out / "two_hosts" / "host-b.xplane.pb", tfdatacases::twoHostsB()},
        {out / "no_tf_data.xplane.pb", tfdatacases::noTfData()},
    };
    for (const auto& [path, space] : files) {
        std::string error;
        if (!space.writeFile(path.string(), error)) {
            std::fprintf(stderr, "make_tf_data_cases: %s\n", error.c_str());
            return 1;
        }
        std::printf("%s\n", path.string().c_str());
    }
    return 0;
}
