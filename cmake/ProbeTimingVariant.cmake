# ProbeTimingVariant.cmake - the in-core timing build (docs/timing.md) of an extern kernel,
# generated from the same clean sources as every other build.
#
#   include(ProbeTimingVariant)
#   probe_add_timing_variant(TARGET name
#       SOURCE entry.cpp                 # the clean extern entry (args[] unpacked)
#       HOST orchestration.cpp           # the clean host side (add_input/add_output/add_scalar)
#       HARNESS harness.cpp [more.cpp]   # host code linked with both builds
#       [SLOTS expr]                     # core slots, a host expression (default blockDim)
#       [EVENTS NAME[:KIND]=PLACE[@FUNC] ...]  # probe-inject --event, KIND as there;
#                                        # @FUNC: a helper the kernel calls
#       [EDITS file ...]                 # helper files (included by SOURCE) the
#                                        # events in helpers may edit (--edit)
#       [INJECT_ARGS arg ...]            # more probe-inject options (--generation,
#                                        # --invocation EXPR --invocations K)
#       [KERNEL_BUILDS NAME=DEF[,DEF...] ...]  # the kernel source compiled once
#                                        # per entry with those definitions (a
#                                        # lane per core type: __DAV_CUBE__ and
#                                        # kernel_entry=NAME_aic, ...)
#       [TEST_SCRIPT test_x.py]          # simpler's test script (--test-script): its
#                                        # incores name the other lanes' sources
#       [LANE_BUILDS lane.cpp=DEF[,DEF...] ...]  # another kernel of the kernel's mixed
#                                        # task, renumbered by the tool: compiled
#                                        # from its generated copy (or, clean, the
#                                        # source) with those definitions
#       [LIBS lib ...] [INCLUDES dir ...] [FLAGS flag ...]
#       [RUN_ARGS arg ...]               # harness arguments of the test runs
#       [TEST_PREFIX prefix])            # default kernel/<name>
#
# At build time (never by hand) `probe-inject --timing-tensor` writes, under
# <build>/<name>_gen/, the instrumented entry, its host file and the event map
# <entry>.timing.json that probe-report --events reads; each EDITS file's
# instrumented copy goes next to the entry (the entry's quoted #include finds
# it there first). Executables:
#   <name>          the timing build (generated entry + generated host file)
#   <name>_clean    the same harness on the clean sources (no timing tensor)
# ctest cases (<prefix>/...):
#   run             the timing build: numerics checked, every invocation's
#                   matrix validated; the last saved as <build>/<name>/timing.npy
#                   and .bin. The harness gets: --expect-timing --events MAP
#                   --save PREFIX, then RUN_ARGS.
#   clean-run       the clean build: numerics checked, no timing tensor
#   strip/kernel, strip/host, strip/edit/<file>   probe-strip --timing-tensor
#                   gives back the clean sources byte for byte, the restored
#                   ABI (docs/method.md, "Removal")
#   strip/check     probe-check finds nothing left in the restored sources
#
# Script mode (what the strip tests run):
#   cmake -DPT_MODE=roundtrip -DPT_STRIP=probe-strip -DPT_GEN=f -DPT_CLEAN=f -DPT_OUT=f -P ProbeTimingVariant.cmake

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED PT_MODE)
  if(PT_MODE STREQUAL "roundtrip")
    # only the timing marks: a helper file may carry its own probe blocks
    execute_process(COMMAND ${PT_STRIP} --timing-tensor ${PT_GEN} -o ${PT_OUT} RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "probe-strip ${PT_GEN} failed (${rc}): ${err}")
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${PT_CLEAN} ${PT_OUT} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "probe-strip did not restore the clean source\n  clean:    ${PT_CLEAN}\n  restored: ${PT_OUT}")
    endif()
    message(STATUS "restored byte for byte: ${PT_CLEAN}")
  else()
    message(FATAL_ERROR "ProbeTimingVariant.cmake: unknown PT_MODE '${PT_MODE}'")
  endif()
  return()
endif()

# set before the guard: each directory that includes this file sees it
set(_PROBE_TIMING_FILE "${CMAKE_CURRENT_LIST_FILE}")
include_guard(GLOBAL)

# The probekit tool: the in-tree targets, or an installed probe-inject.
function(_probe_timing_tools out_prefix out_deps)
  if(TARGET probe)
    set(deps probe)
    if(TARGET probekit_ast)
      list(APPEND deps probekit_ast) # --timing-tensor runs in the libclang module
    endif()
    set(${out_prefix} "$<TARGET_FILE_DIR:probe>/probe-" PARENT_SCOPE)
    set(${out_deps} ${deps} PARENT_SCOPE)
    return()
  endif()
  find_program(PROBEKIT_INJECT probe-inject)
  if(NOT PROBEKIT_INJECT)
    message(FATAL_ERROR "probe_add_timing_variant: probe-inject not found; install probekit or set PROBEKIT_INJECT")
  endif()
  get_filename_component(dir "${PROBEKIT_INJECT}" DIRECTORY)
  set(${out_prefix} "${dir}/probe-" PARENT_SCOPE)
  set(${out_deps} "${PROBEKIT_INJECT}" PARENT_SCOPE)
endfunction()

# _probe_timing_object(TARGET SOURCE SPEC): an object library of SOURCE built
# with the definitions after the '=' of SPEC ("NAME=DEF,DEF,..."), with the
# variant's includes, libraries and flags (the caller's srcdir, hostdir and
# PT_* variables).
function(_probe_timing_object target source spec)
  string(FIND "${spec}" "=" eq)
  math(EXPR eq "${eq} + 1")
  string(SUBSTRING "${spec}" ${eq} -1 defs)
  string(REPLACE "," ";" defs "${defs}")
  add_library(${target} OBJECT ${source})
  target_compile_definitions(${target} PRIVATE ${defs})
  target_include_directories(${target} PRIVATE ${srcdir} ${hostdir} ${PT_INCLUDES})
  target_link_libraries(${target} PRIVATE ${PT_LIBS})
  target_compile_options(${target} PRIVATE ${PT_FLAGS})
endfunction()

function(probe_add_timing_variant)
  cmake_parse_arguments(PT "" "TARGET;SOURCE;HOST;SLOTS;TEST_PREFIX;TEST_SCRIPT"
    "HARNESS;EVENTS;EDITS;INJECT_ARGS;KERNEL_BUILDS;LANE_BUILDS;LIBS;INCLUDES;FLAGS;RUN_ARGS" ${ARGN})
  foreach(req TARGET SOURCE HOST HARNESS)
    if(NOT PT_${req})
      message(FATAL_ERROR "probe_add_timing_variant: ${req} is required")
    endif()
  endforeach()
  if(NOT PT_SLOTS)
    set(PT_SLOTS blockDim)
  endif()
  if(NOT PT_TEST_PREFIX)
    set(PT_TEST_PREFIX "kernel/${PT_TARGET}")
  endif()
  get_filename_component(src "${PT_SOURCE}" ABSOLUTE)
  get_filename_component(host "${PT_HOST}" ABSOLUTE)
  get_filename_component(srcdir "${src}" DIRECTORY)
  get_filename_component(hostdir "${host}" DIRECTORY)
  get_filename_component(sbase "${src}" NAME)
  get_filename_component(hbase "${host}" NAME)
  set(gen "${CMAKE_CURRENT_BINARY_DIR}/${PT_TARGET}_gen")
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${PT_TARGET}")
  _probe_timing_tools(tool tool_deps)

  set(event_args "")
  foreach(e IN LISTS PT_EVENTS)
    list(APPEND event_args --event "${e}")
  endforeach()
  set(edit_args "")
  set(edit_outs "")
  set(edit_srcs "")
  foreach(f IN LISTS PT_EDITS)
    get_filename_component(f "${f}" ABSOLUTE)
    get_filename_component(fb "${f}" NAME)
    list(APPEND edit_args --edit "${f}")
    list(APPEND edit_outs "${gen}/${fb}")
    list(APPEND edit_srcs "${f}")
  endforeach()
  # the test script and the other lanes' sources: generated next to the entry
  set(ts_args "")
  if(PT_TEST_SCRIPT)
    get_filename_component(ts "${PT_TEST_SCRIPT}" ABSOLUTE)
    get_filename_component(tsb "${ts}" NAME)
    set(ts_args --test-script ${ts})
    list(APPEND edit_outs "${gen}/${tsb}")
    list(APPEND edit_srcs "${ts}")
  endif()
  set(lane_srcs "")
  foreach(b IN LISTS PT_LANE_BUILDS)
    string(FIND "${b}" "=" eq)
    string(SUBSTRING "${b}" 0 ${eq} lsrc)
    get_filename_component(lsrc "${lsrc}" ABSOLUTE)
    get_filename_component(lb "${lsrc}" NAME)
    if(NOT lsrc IN_LIST lane_srcs) # one lane source may have several builds
      list(APPEND lane_srcs "${lsrc}")
      list(APPEND edit_outs "${gen}/${lb}")
      list(APPEND edit_srcs "${lsrc}")
    endif()
  endforeach()
  set(clang_args -x c++ -std=c++17 -I${srcdir} -I${hostdir})
  foreach(d IN LISTS PT_INCLUDES)
    get_filename_component(d "${d}" ABSOLUTE)
    list(APPEND clang_args -I${d})
  endforeach()
  add_custom_command(OUTPUT ${gen}/${sbase} ${gen}/${hbase} ${gen}/${sbase}.timing.json ${edit_outs}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${gen}
    COMMAND ${tool}inject --timing-tensor ${event_args} ${edit_args} ${ts_args} ${PT_INJECT_ARGS} ${src} -o ${gen}/${sbase}
            --host ${host} --host-out ${gen}/${hbase} --slots ${PT_SLOTS} -- ${clang_args}
    DEPENDS ${src} ${host} ${edit_srcs} ${tool_deps}
    COMMENT "probe-inject --timing-tensor ${sbase} -> ${PT_TARGET}" VERBATIM)

  foreach(kind timing clean)
    if(kind STREQUAL "timing")
      set(exe ${PT_TARGET})
      set(ksrc ${gen}/${sbase})
      set(hsrc ${gen}/${hbase})
    else()
      set(exe ${PT_TARGET}_clean)
      set(ksrc ${src})
      set(hsrc ${host})
    endif()
    set(files ${ksrc} ${hsrc})
    if(PT_KERNEL_BUILDS)
      # one object of the kernel per build, each with its own definitions
      set(files ${hsrc})
      foreach(b IN LISTS PT_KERNEL_BUILDS)
        string(FIND "${b}" "=" eq)
        string(SUBSTRING "${b}" 0 ${eq} bname)
        _probe_timing_object(${exe}_${bname} ${ksrc} "${b}")
        list(APPEND files $<TARGET_OBJECTS:${exe}_${bname}>)
      endforeach()
    endif()
    set(li 0)
    foreach(b IN LISTS PT_LANE_BUILDS)
      string(FIND "${b}" "=" eq)
      string(SUBSTRING "${b}" 0 ${eq} lsrc)
      get_filename_component(lsrc "${lsrc}" ABSOLUTE)
      get_filename_component(lb "${lsrc}" NAME)
      if(kind STREQUAL "timing")
        set(lsrc ${gen}/${lb})
      endif()
      math(EXPR li "${li} + 1")
      _probe_timing_object(${exe}_lane${li} ${lsrc} "${b}")
      list(APPEND files $<TARGET_OBJECTS:${exe}_lane${li}>)
    endforeach()
    add_executable(${exe} ${files} ${PT_HARNESS})
    if(kind STREQUAL "timing" AND edit_outs)
      # the instrumented helpers first, whatever the include form
      target_include_directories(${exe} BEFORE PRIVATE ${gen})
      set_source_files_properties(${gen}/${sbase} PROPERTIES OBJECT_DEPENDS "${edit_outs}")
    endif()
    target_include_directories(${exe} PRIVATE ${srcdir} ${hostdir} ${PT_INCLUDES})
    target_link_libraries(${exe} PRIVATE ${PT_LIBS})
    target_compile_options(${exe} PRIVATE ${PT_FLAGS})
  endforeach()

  file(MAKE_DIRECTORY ${out})
  add_test(NAME ${PT_TEST_PREFIX}/run
    COMMAND $<TARGET_FILE:${PT_TARGET}> --expect-timing --events ${gen}/${sbase}.timing.json
            --save ${out}/timing ${PT_RUN_ARGS})
  add_test(NAME ${PT_TEST_PREFIX}/clean-run COMMAND $<TARGET_FILE:${PT_TARGET}_clean> ${PT_RUN_ARGS})
  add_test(NAME ${PT_TEST_PREFIX}/strip/kernel
    COMMAND ${CMAKE_COMMAND} -DPT_MODE=roundtrip -DPT_STRIP=${tool}strip -DPT_GEN=${gen}/${sbase}
            -DPT_CLEAN=${src} -DPT_OUT=${gen}/restored_${sbase} -P ${_PROBE_TIMING_FILE})
  add_test(NAME ${PT_TEST_PREFIX}/strip/host
    COMMAND ${CMAKE_COMMAND} -DPT_MODE=roundtrip -DPT_STRIP=${tool}strip -DPT_GEN=${gen}/${hbase}
            -DPT_CLEAN=${host} -DPT_OUT=${gen}/restored_${hbase} -P ${_PROBE_TIMING_FILE})
  set(restored_edits "")
  set(strip_tests "${PT_TEST_PREFIX}/strip/kernel;${PT_TEST_PREFIX}/strip/host")
  foreach(f IN LISTS edit_srcs)
    get_filename_component(fb "${f}" NAME)
    add_test(NAME ${PT_TEST_PREFIX}/strip/edit/${fb}
      COMMAND ${CMAKE_COMMAND} -DPT_MODE=roundtrip -DPT_STRIP=${tool}strip -DPT_GEN=${gen}/${fb}
              -DPT_CLEAN=${f} -DPT_OUT=${gen}/restored_${fb} -P ${_PROBE_TIMING_FILE})
    list(APPEND restored_edits ${gen}/restored_${fb})
    list(APPEND strip_tests ${PT_TEST_PREFIX}/strip/edit/${fb})
  endforeach()
  add_test(NAME ${PT_TEST_PREFIX}/strip/check
    COMMAND ${tool}check ${gen}/restored_${sbase} ${gen}/restored_${hbase} ${restored_edits})
  set_tests_properties(${PT_TEST_PREFIX}/strip/check PROPERTIES DEPENDS "${strip_tests}")
endfunction()
