#include "model/sql/arg_rows.h"

#include <simdjson.h>

#include <limits>

namespace tracescope::sql {

namespace {

// A parsed JSON value's leaves as rows under `key`; an empty object or array, or one nested
// deeper than the bound, is one row of JSON text.
void flatten(simdjson::dom::element e, const std::string& key, const std::string& flatKey, int depth,
             std::vector<ArgRow>& out) {
    using simdjson::dom::element_type;
    ArgRow row;
    row.key = key;
    row.flatKey = flatKey;
    simdjson::dom::object object;
    simdjson::dom::array array;
    int64_t i = 0;
    uint64_t u = 0;
    double d = 0;
    std::string_view text;
    bool b = false;
    if (e.get(object) == simdjson::SUCCESS) {
        if (depth < 32 && object.size() > 0) {
            for (auto field : object) {
                const std::string name(field.key);
                flatten(field.value, key + "." + name, flatKey + "." + name, depth + 1, out);
            }
            return;
        }
    } else if (e.get(array) == simdjson::SUCCESS) {
        if (depth < 32 && array.size() > 0) {
            size_t n = 0;
            for (auto item : array) flatten(item, key + "[" + std::to_string(n++) + "]", flatKey, depth + 1, out);
            return;
        }
    } else if (e.is_int64() && e.get(i) == simdjson::SUCCESS) {
        row.type = ArgRow::Type::Int;
        row.intValue = i;
        out.push_back(std::move(row));
        return;
    } else if (e.is_uint64() && e.get(u) == simdjson::SUCCESS) {
        row.type = ArgRow::Type::UInt;
        if (u <= uint64_t(std::numeric_limits<int64_t>::max())) row.intValue = int64_t(u);
        else row.stringValue = std::to_string(u);
        out.push_back(std::move(row));
        return;
    } else if (e.get(d) == simdjson::SUCCESS) {
        row.type = ArgRow::Type::Real;
        row.realValue = d;
        out.push_back(std::move(row));
        return;
    } else if (e.get(text) == simdjson::SUCCESS) {
        row.type = ArgRow::Type::String;
        row.stringValue = std::string(text);
        out.push_back(std::move(row));
        return;
    } else if (e.get(b) == simdjson::SUCCESS) {
        row.type = ArgRow::Type::Bool;
        row.intValue = b ? 1 : 0;
        out.push_back(std::move(row));
        return;
    } else {  // null
        out.push_back(std::move(row));
        return;
    }
    row.type = ArgRow::Type::Json;
    row.stringValue = simdjson::minify(e);
    out.push_back(std::move(row));
}

}  // namespace

const char* argTypeName(ArgRow::Type t) {
    switch (t) {
    case ArgRow::Type::Null: return "null";
    case ArgRow::Type::Bool: return "bool";
    case ArgRow::Type::Int: return "int";
    case ArgRow::Type::UInt: return "uint";
    case ArgRow::Type::Real: return "real";
    case ArgRow::Type::String: return "string";
    case ArgRow::Type::Json: return "json";
    }
    return "null";
}

void appendArgRows(const Trace& trace, const Track& track, ArgsOffset offset, std::vector<ArgRow>& out) {
    ArgsReader reader(track.argsView(), offset);
    Arg a;
    while (reader.next(a)) {
        ArgRow row;
        row.key = std::string(trace.str(a.key));
        row.flatKey = row.key;
        switch (a.value.type) {
        case ArgValue::Type::Null: break;
        case ArgValue::Type::False:
        case ArgValue::Type::True:
            row.type = ArgRow::Type::Bool;
            row.intValue = a.value.type == ArgValue::Type::True;
            break;
        case ArgValue::Type::Int:
            row.type = ArgRow::Type::Int;
            row.intValue = a.value.i;
            break;
        case ArgValue::Type::UInt:
            row.type = ArgRow::Type::UInt;
            if (a.value.u <= uint64_t(std::numeric_limits<int64_t>::max())) row.intValue = int64_t(a.value.u);
            else row.stringValue = std::to_string(a.value.u);
            break;
        case ArgValue::Type::Double:
            row.type = ArgRow::Type::Real;
            row.realValue = a.value.d;
            break;
        case ArgValue::Type::String:
            row.type = ArgRow::Type::String;
            row.stringValue = std::string(trace.str(a.value.s));
            break;
        case ArgValue::Type::Json: {
            // Objects and arrays were kept as their JSON text: their leaves become rows.
            const std::string_view text = trace.str(a.value.s);
            simdjson::dom::parser parser;
            simdjson::dom::element root;
            if (parser.parse(text.data(), text.size()).get(root) == simdjson::SUCCESS) {
                flatten(root, row.key, row.flatKey, 0, out);
                continue;
            }
            row.type = ArgRow::Type::Json;
            row.stringValue = std::string(text);
            break;
        }
        }
        out.push_back(std::move(row));
    }
}

}  // namespace tracescope::sql
