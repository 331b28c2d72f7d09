#include "model/analysis/precision.h"

#include "model/trace/text_match.h"

#include <array>
#include <cctype>
#include <string>

namespace tracescope {

bool isSixteenBitKernel(std::string_view name) {
    const std::string lower = asciiLower(name);
    static constexpr std::array<std::string_view, 8> kMarks = {"half", "fp16", "bf16", "f16", "__nv_bfloat16",
                                                               "h884", "h1688", "h16816"};
    for (auto m : kMarks)
        if (lower.find(m) != std::string::npos) return true;
    return false;
}

}  // namespace tracescope
