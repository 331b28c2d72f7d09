# Writes OUT: the Debian changelog of the package built from this tree (a native package's
# required changelog; its entry names the commit, dated as the commit is, so the same commit
# gives the same file).
#   cmake -DVERSION=0.1.0 -DSOURCE_DIR=... -DOUT=... -P write_changelog.cmake
set(version ${VERSION})
set(date "Thu, 01 Jan 2026 00:00:00 +0000")
set(what "Built from a source tree without git history.")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND ${GIT_EXECUTABLE} -C "${SOURCE_DIR}" log -1 --abbrev=12 --format=%h%n%aD
                  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
  if(NOT failed AND head)
    string(REPLACE "\n" ";" head "${head}")
    list(GET head 0 commit)
    list(GET head 1 date)
    set(version "${VERSION}+git${commit}")
    set(what "Built from git commit ${commit}; the changes are the project's git log.")
  endif()
endif()
file(WRITE "${OUT}" "tracescope (${version}) unstable; urgency=medium\n\n  * ${what}\n\n -- TraceScope developers <tracescope@localhost>  ${date}\n")
