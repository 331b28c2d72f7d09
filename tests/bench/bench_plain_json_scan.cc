#include "bench_plain_json_scan.h"

#include <simdjson.h>
#include <zlib.h>

#include <chrono>
#include <cstdio>
#include <vector>

namespace od = simdjson::ondemand;

namespace {

bool loadGzip(const std::string& path, simdjson::padded_string& out) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) return false;
    gzbuffer(f, 1 << 20);
    std::string text;
    std::vector<char> buf(16 << 20);
    int n;
    while ((n = gzread(f, buf.data(), unsigned(buf.size()))) > 0) text.append(buf.data(), size_t(n));
    gzclose(f);
    out = simdjson::padded_string(text);
    return true;
}

void scanEvents(od::array events, PlainScanResult& r) {
    for (auto element : events) {
        od::object event;
        if (element.get_object().get(event)) continue;
        for (auto field : event) {
            od::field f;
            if (std::move(field).get(f)) break;
            const simdjson::ondemand::raw_json_string key = f.key();
            if (key == "ph" || key == "name") {
                std::string_view s;
                if (!f.value().get_string().get(s)) r.checksum += double(s.size());
            } else if (key == "ts" || key == "dur") {
                double d;
                if (!f.value().get_double().get(d)) r.checksum += d;
            }
        }
        ++r.events;
    }
}

}  // namespace

PlainScanResult plainJsonScan(const std::string& path) {
    PlainScanResult r;
    const auto t0 = std::chrono::steady_clock::now();
    simdjson::padded_string json;
    FILE* probe = std::fopen(path.c_str(), "rb");
    unsigned char magic[2] = {0, 0};
    if (probe) {
        if (std::fread(magic, 1, 2, probe) != 2) magic[0] = 0;
        std::fclose(probe);
    }
    if (magic[0] == 0x1f && magic[1] == 0x8b) {
        if (!loadGzip(path, json)) {
            r.error = "cannot read " + path;
            return r;
        }
    } else if (simdjson::padded_string::load(path).get(json)) {
        r.error = "cannot read " + path;
        return r;
    }
    r.loadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    od::parser parser;
    od::document doc;
    if (auto err = parser.iterate(json).get(doc)) {
        r.error = simdjson::error_message(err);
        return r;
    }
    od::json_type type;
    if (doc.type().get(type)) {
        r.error = "not JSON";
        return r;
    }
    if (type == od::json_type::array) {
        od::array events;
        if (!doc.get_array().get(events)) scanEvents(events, r);
    } else {
        for (auto field : doc.get_object()) {
            od::field f;
            if (std::move(field).get(f)) break;
            if (f.key() == "traceEvents") {
                od::array events;
                if (!f.value().get_array().get(events)) scanEvents(events, r);
            }
        }
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.ok = true;
    return r;
}
