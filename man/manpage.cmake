# manpage.cmake - one man page from a command's --help, so the two never
# disagree: the page is the help text itself (verbatim, in no-fill mode)
# under the usual NAME / DESCRIPTION / SEE ALSO headings.
#
#   cmake -DPROBE=path/to/probe -DCMD=strip|inject|... (empty: probe(1))
#         -DVERSION=x.y.z -DOUT=probe-strip.1 -P manpage.cmake
# probe-inject's --help holds every form of the command (blocks, insertion,
# the timing tensor) and needs no libclang module.
#
# Run at build time by man/CMakeLists.txt, and by tests/sh/man_pages.sh to
# check that an installed page still matches the binary beside it.
foreach(v PROBE OUT VERSION)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "manpage.cmake: -D${v}= is required")
  endif()
endforeach()

# help ARGS...: the text `probe ARGS...` prints (exit 0 required)
function(_help out)
  execute_process(COMMAND ${PROBE} ${ARGN} OUTPUT_VARIABLE text RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "manpage.cmake: '${PROBE} ${ARGN}' failed (${rc}): ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# roff for verbatim text: backslashes doubled, a line starting with . or '
# guarded so it is not read as a request
function(_roff out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

_help(top --help)
if(CMD)
  string(TOUPPER "probe-${CMD}" title)
  set(name "probe-${CMD}")
  string(REGEX MATCH "\n  ${CMD} +([^\n]*)" m "${top}")
  if(NOT m)
    message(FATAL_ERROR "manpage.cmake: '${CMD}' is not in 'probe --help'")
  endif()
  set(summary "${CMAKE_MATCH_1}")
  _help(body ${CMD} --help)
  set(extra "")
  set(see "probe(1)")
else()
  set(title "PROBE")
  set(name "probe")
  set(summary "timing probes for Ascend NPU kernels, by source-to-source rewriting")
  set(body "${top}")
  set(extra "")
  set(see "probe-check(1), probe-inject(1), probe-list(1), probe-report(1), probe-strip(1)")
endif()
_roff(body "${body}")
_roff(summary "${summary}")
file(WRITE "${OUT}.tmp"
  ".\\\" Generated from '${name} --help' by man/manpage.cmake; do not edit.\n"
  ".TH ${title} 1 \"\" \"probekit ${VERSION}\" \"probekit\"\n"
  ".SH NAME\n${name} \\- ${summary}\n"
  ".SH DESCRIPTION\n.nf\n${body}.fi\n${extra}"
  ".SH SEE ALSO\n${see}\n")
file(RENAME "${OUT}.tmp" "${OUT}")
