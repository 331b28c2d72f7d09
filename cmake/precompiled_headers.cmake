# Precompiled headers: most of a translation unit's compile time here is parsing the same
# headers again (Qt's module headers, nlohmann/json, the standard library): about 40 % of a
# test's compile. One header set per kind of target, parsed once per target, or once for all
# tests (tests/pch: a test reuses its host's precompiled header, which only works when the host's
# compile definitions are a subset of the test's, so the hosts link no test-specific library).
#
# -DTRACESCOPE_PRECOMPILED_HEADERS=OFF builds without them, e.g. to check that every file
# includes what it uses.
option(TRACESCOPE_PRECOMPILED_HEADERS "Use precompiled headers" ON)

set(TRACESCOPE_PCH_STD
  <algorithm> <array> <atomic> <cstdint> <cstring> <functional> <map> <memory> <mutex>
  <optional> <string> <string_view> <unordered_map> <utility> <vector>)
set(TRACESCOPE_PCH_JSON <nlohmann/json.hpp>)
set(TRACESCOPE_PCH_QT_CORE <QtCore>)
set(TRACESCOPE_PCH_QT_WIDGETS <QtWidgets>)

# tracescope_precompile(TARGET SETS...): TARGET's own precompiled header from the named sets
# (STD, JSON, QT_CORE, QT_WIDGETS).
function(tracescope_precompile target)
  if(NOT TRACESCOPE_PRECOMPILED_HEADERS)
    return()
  endif()
  set(headers)
  foreach(set_name ${ARGN})
    list(APPEND headers ${TRACESCOPE_PCH_${set_name}})
  endforeach()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

# tracescope_reuse_precompiled(TARGET HOST): TARGET compiles with HOST's precompiled header.
# -Winvalid-pch names any file for which the compiler refuses it (then it is only slower).
function(tracescope_reuse_precompiled target host)
  if(NOT TRACESCOPE_PRECOMPILED_HEADERS OR NOT TARGET ${host})
    return()
  endif()
  target_precompile_headers(${target} REUSE_FROM ${host})
  target_compile_options(${target} PRIVATE -Winvalid-pch)
endfunction()
