#include "model/analysis/collective_shapes.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace tracescope {

namespace {

// A small reader of nested JSON arrays of integers, as "Input Dims" holds them.
class DimsReader {
public:
    explicit DimsReader(std::string_view s) : s_(s) {}

    // Reads one value: a number, or an array; fills what it holds. False on malformed text.
    struct Node {
        bool isNumber = false;
        int64_t number = 0;
        std::vector<Node> items;
    };
    bool value(Node& n, int depth = 0) {
        skip();
        if (depth > 8 || pos_ >= s_.size()) return false;
        if (s_[pos_] == '[') {
            ++pos_;
            skip();
            if (pos_ < s_.size() && s_[pos_] == ']') return ++pos_, true;
            for (;;) {
                if (!value(n.items.emplace_back(), depth + 1)) return false;
                skip();
                if (pos_ >= s_.size()) return false;
                if (s_[pos_] == ']') return ++pos_, true;
                if (s_[pos_++] != ',') return false;
            }
        }
        bool negative = false;
        if (s_[pos_] == '-') negative = true, ++pos_;
        if (pos_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[pos_]))) return false;
        int64_t x = 0;
        while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
            const int d = s_[pos_++] - '0';
            if (x > (std::numeric_limits<int64_t>::max() - d) / 10) return false;
            x = x * 10 + d;
        }
        n.isNumber = true;
        n.number = negative ? -x : x;
        return true;
    }
    bool atEnd() { return skip(), pos_ == s_.size(); }

private:
    void skip() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    }
    std::string_view s_;
    size_t pos_ = 0;
};

using Node = DimsReader::Node;

// A tensor's elements: its dims (numbers) multiplied; -1 when not a tensor's dims.
int64_t tensorElements(const Node& n) {
    if (n.isNumber || n.items.empty()) return -1;
    int64_t e = 1;
    for (const Node& d : n.items) {
        if (!d.isNumber || d.number < 0) return -1;
        if (d.number != 0 && e > std::numeric_limits<int64_t>::max() / d.number) return -1;
        e *= d.number;
    }
    return e;
}

// An argument's elements: a tensor's, or a tensor list's sum.
int64_t argumentElementsOf(const Node& arg) {
    if (const int64_t e = tensorElements(arg); e >= 0) return e;
    if (arg.isNumber || arg.items.empty()) return -1;
    int64_t sum = 0;
    for (const Node& tensor : arg.items) {
        const int64_t e = tensorElements(tensor);
        if (e < 0 || sum > std::numeric_limits<int64_t>::max() - e) return -1;
        sum += e;
    }
    return sum;
}

std::vector<int64_t> numbersIn(std::string_view text) {
    std::vector<int64_t> out;
    int64_t x = -1;
    for (char c : text) {
        if (std::isdigit(static_cast<unsigned char>(c))) {
            x = (x < 0 ? 0 : x * 10) + (c - '0');
            if (x > (int64_t(1) << 40)) return {};
        } else if (x >= 0) {
            out.push_back(x);
            x = -1;
        }
    }
    if (x >= 0) out.push_back(x);
    return out;
}

bool isNumber(std::string_view s) {
    return !s.empty() && s.size() < 10 &&
           std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

}  // namespace

std::vector<int64_t> argumentElements(std::string_view inputDims) {
    DimsReader reader(inputDims);
    Node root;
    if (!reader.value(root) || !reader.atEnd() || root.isNumber) return {};
    std::vector<int64_t> out;
    out.reserve(root.items.size());
    for (const Node& arg : root.items) out.push_back(argumentElementsOf(arg));
    return out;
}

std::string dtypeOfCppType(std::string_view t) {
    // c10's ScalarType list (c10/core/ScalarType.h) with the C++ type each is stored as.
    static const std::pair<std::string_view, std::string_view> types[] = {
        {"float", "Float"},
        {"double", "Double"},
        {"c10::Half", "Half"},
        {"c10::BFloat16", "BFloat16"},
        {"int", "Int"},
        {"long int", "Long"},
        {"long", "Long"},
        {"int64_t", "Long"},
        {"short int", "Short"},
        {"short", "Short"},
        {"signed char", "Char"},
        {"unsigned char", "Byte"},
        {"bool", "Bool"},
        {"c10::complex<c10::Half>", "ComplexHalf"},
        {"c10::complex<float>", "ComplexFloat"},
        {"c10::complex<double>", "ComplexDouble"},
        {"unsigned short", "UInt16"},
        {"unsigned int", "UInt32"},
        {"unsigned long", "UInt64"},
        {"c10::Float8_e4m3fn", "Float8_e4m3fn"},
        {"c10::Float8_e5m2", "Float8_e5m2"},
        {"c10::Float8_e4m3fnuz", "Float8_e4m3fnuz"},
        {"c10::Float8_e5m2fnuz", "Float8_e5m2fnuz"},
        {"c10::Float8_e8m0fnu", "Float8_e8m0fnu"},
    };
    for (auto [cpp, kineto] : types)
        if (t == cpp) return std::string(kineto);
    return {};
}

std::string firstListString(std::string_view list, size_t index) {
    // ["float", "", "TensorList"]: the index-th quoted string (no escapes in type names).
    size_t at = 0;
    for (size_t i = 0;; ++i) {
        const size_t open = list.find('"', at);
        if (open == std::string_view::npos) return {};
        const size_t close = list.find('"', open + 1);
        if (close == std::string_view::npos) return {};
        if (i == index) return std::string(list.substr(open + 1, close - open - 1));
        at = close + 1;
    }
}

CallElements c10dCallElements(std::string_view kind, const std::vector<int64_t>& args) {
    CallElements e;
    const auto arg = [&](size_t i) { return i < args.size() ? args[i] : int64_t(-1); };
    if (kind == "_allgather_base" || kind == "_reduce_scatter_base" || kind == "all_to_all" ||
        kind == "allgather_into_tensor_coalesced" || kind == "reduce_scatter_tensor_coalesced") {
        e.out = arg(0);  // (output, input, …)
        e.in = arg(1);
    } else if (kind == "allgather" || kind == "allgather_coalesced") {
        e.in = arg(1);  // (output lists, inputs, …): the output lists are not recorded
    } else if (kind == "allreduce" || kind == "allreduce_coalesced" || kind == "broadcast" || kind == "reduce") {
        e.in = e.out = arg(0);
    }
    return e;
}

std::vector<std::string> groupsOfRank(const DistributedInfo& dist) {
    std::vector<std::string> member;
    if (!dist.rank) return member;
    for (const auto& [name, group] : dist.groups) {
        const std::vector<int64_t> ranks = numbersIn(group.ranks);
        if (std::find(ranks.begin(), ranks.end(), *dist.rank) != ranks.end()) member.push_back(name);
    }
    if (std::all_of(member.begin(), member.end(), isNumber))
        std::sort(member.begin(), member.end(),
                  [](const std::string& a, const std::string& b) { return std::stoll(a) < std::stoll(b); });
    return member;
}

std::map<TrackIndex, std::string> glooThreadGroups(const Trace& t, std::vector<TrackIndex> workers,
                                                   const DistributedInfo& dist) {
    std::map<TrackIndex, std::string> out;
    const std::vector<std::string> member = groupsOfRank(dist);
    if (!std::all_of(member.begin(), member.end(), isNumber)) return out;  // named groups: order unknown
    // gloo's default is two threads a group (ProcessGroupGloo::Options); any other count (a
    // group whose threads recorded nothing, another setting) leaves the groups unknown.
    constexpr size_t kThreadsPerGroup = 2;
    if (member.empty() || workers.size() != kThreadsPerGroup * member.size()) return out;
    std::sort(workers.begin(), workers.end(),
              [&](TrackIndex a, TrackIndex b) { return t.tracks[a].tid < t.tracks[b].tid; });
    for (size_t i = 0; i < workers.size(); ++i) out[workers[i]] = member[i / kThreadsPerGroup];
    return out;
}

}  // namespace tracescope
