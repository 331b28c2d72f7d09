// Waits, polling every millisecond, until `condition` holds: true, or false after `ms`. For tests
// of the job runner and the result store, whose jobs run on threads of their own.
#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace tracescope::testing {

inline bool waitUntil(const std::function<bool()>& condition, int ms = 10000) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!condition()) {
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

}  // namespace tracescope::testing
