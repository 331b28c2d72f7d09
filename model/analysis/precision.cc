#include "model/analysis/precision.h"

#include <array>
#include <cctype>
#include <string>

namespace tracescope {

bool isSixteenBitKernel(std::string_view name) {
    std::string lower(name);
    for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    static constexpr std::array<std::string_view, 8> kMarks = {"half", "fp16", "bf16", "f16", "__nv_bfloat16",
                                                               "h884", "h1688", "h16816"};
    for (auto m : kMarks)
        if (lower.find(m) != std::string::npos) return true;
    return false;
}

}  // namespace tracescope
