# ProbeVariants.cmake - one clean kernel source, several verified builds.
#
#   include(ProbeVariants)
#   probe_add_variants(TARGET name SOURCE kernel.cpp
#                      PROBES T_BASE STAGE_A ...        # every probe in SOURCE
#                      HARNESS harness.cpp [more.cpp ...]
#                      [LIBS lib ...]                   # e.g. the simulation, a golden reference
#                      [INCLUDES dir ...] [FLAGS flag ...]
#                      [RUN_ARGS arg ...]               # harness arguments for the test runs
#                      [EXPECT_LINES n]                 # lines each probe prints per test run
#                      [TEST_PREFIX prefix])            # default kernel/<name>
#
# At build time (never by hand) the probekit tool generates under the build
# dir: <name>_variants/prod/<kernel> (probe-strip) and
# <name>_variants/probe_<P>/<kernel> (probe-inject --probe P, one probe per
# build). Executables: <name>_prod and <name>_probe_<P>, each the generated
# kernel linked with the harness. ctest cases (<prefix>/...):
#   probe-list      PROBES equals `probe-list --names SOURCE` (a probe added to
#                   the source without a variant fails here)
#   prod-check      the production source passes `probe-check --strict`
#   prod-residue    the production object is byte-identical to the clean
#                   source's object with every probe off (same flags, -g0)
#   residue-detects the same comparison tells the first probe's object from
#                   the clean one (the check is not blind)
#   prod-run        the production build exits 0 and prints no probe line
#   probe/<P>       the build exits 0 and prints only P's lines (and T_BASE's)
#                   in the form [P] start=.. end=.. dur=..
# The harness contract: exit 0 only when every output matched its reference;
# device probe lines go to stdout.
#
# Inside the probekit tree the tool is the `probe` target; elsewhere the
# installed probe-inject, probe-strip, probe-list and probe-check are found
# on PATH. This file is also the script the tests run:
#   cmake -DPV_MODE=list|run|compare ... -P ProbeVariants.cmake

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED PV_MODE)
  # ---- script mode: the checks behind the registered tests ----------------
  if(PV_MODE STREQUAL "list")
    # PV_TOOL (probe-list), PV_SOURCE, PV_PROBES
    execute_process(COMMAND ${PV_TOOL} --names ${PV_SOURCE}
      OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "probe-list --names ${PV_SOURCE} failed (${rc}): ${err}")
    endif()
    string(STRIP "${out}" out)
    string(REPLACE "\n" ";" found "${out}")
    if(NOT "${found}" STREQUAL "${PV_PROBES}")
      message(FATAL_ERROR "the source's probes and the variants differ\n"
        "  in ${PV_SOURCE}: ${found}\n  PROBES given:  ${PV_PROBES}\n"
        "give probe_add_variants() the source's probe list (in order of first appearance)")
    endif()
    message(STATUS "probes: ${found}")
  elseif(PV_MODE STREQUAL "compare")
    # PV_A, PV_B: object files
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${PV_A} ${PV_B} RESULT_VARIABLE rc)
    if(PV_EXPECT_DIFFERENT)
      # the comparison must see an enabled probe, or it proves nothing
      if(rc EQUAL 0)
        message(FATAL_ERROR "an instrumented object equals the clean one: the residue check is blind\n"
          "  clean: ${PV_A}\n  probe: ${PV_B}")
      endif()
      message(STATUS "the residue check tells an instrumented object from the clean one")
      return()
    endif()
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "probe residue: the production object differs from the clean source's\n"
        "  clean: ${PV_A}\n  prod:  ${PV_B}")
    endif()
    message(STATUS "production object identical to the clean build: ${PV_B}")
  elseif(PV_MODE STREQUAL "run")
    # PV_EXE, PV_ARGS, PV_PROBE (empty: production), PV_EXPECT_LINES
    execute_process(COMMAND ${PV_EXE} ${PV_ARGS}
      OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${PV_EXE} exited ${rc} (numerics or run failed)\n${out}${err}")
    endif()
    # brackets would bend CMake's list splitting; compare on <NAME> instead
    string(REPLACE "[" "<" text "\n${out}")
    string(REPLACE "]" ">" text "${text}")
    string(REPLACE ";" "," text "${text}")
    string(REGEX MATCHALL "\n<[^\n]*" lines "${text}")
    set(own 0)
    set(bases 0)
    foreach(l IN LISTS lines)
      string(SUBSTRING "${l}" 1 -1 l)
      if(l MATCHES "^<T_BASE> [0-9]+$")
        math(EXPR bases "${bases} + 1")
      elseif(l MATCHES "^<([A-Za-z_][A-Za-z0-9_]*)> (block=[0-9]+ )?(iter=[0-9]+ )?start=([0-9]+) end=([0-9]+) dur=([0-9]+)$")
        set(name "${CMAKE_MATCH_1}")
        set(s "${CMAKE_MATCH_4}")
        set(e "${CMAKE_MATCH_5}")
        set(d "${CMAKE_MATCH_6}")
        if(NOT name STREQUAL "${PV_PROBE}")
          message(FATAL_ERROR "the ${PV_PROBE} build printed another probe's line: ${l}\n${out}")
        endif()
        math(EXPR want "${e} - ${s}")
        if(NOT want EQUAL d)
          message(FATAL_ERROR "dur is not end - start: ${l}")
        endif()
        math(EXPR own "${own} + 1")
      elseif(l MATCHES "^<[A-Za-z_][A-Za-z0-9_]*>")
        message(FATAL_ERROR "a probe line not in the form [NAME] start=.. end=.. dur=..: ${l}\n${out}")
      endif()
    endforeach()
    if(PV_PROBE STREQUAL "")
      math(EXPR any "${own} + ${bases}")
      if(NOT any EQUAL 0)
        message(FATAL_ERROR "the production build printed probe lines\n${out}")
      endif()
      message(STATUS "production run: outputs verified, no probe line")
      return()
    endif()
    if(PV_PROBE STREQUAL "T_BASE")
      set(own ${bases})
    endif()
    if(own EQUAL 0)
      message(FATAL_ERROR "the ${PV_PROBE} build printed no ${PV_PROBE} line\n${out}")
    endif()
    if(DEFINED PV_EXPECT_LINES AND NOT PV_EXPECT_LINES STREQUAL "" AND NOT own EQUAL PV_EXPECT_LINES)
      message(FATAL_ERROR "the ${PV_PROBE} build printed ${own} ${PV_PROBE} lines, expected ${PV_EXPECT_LINES}\n${out}")
    endif()
    message(STATUS "${PV_PROBE}: ${own} lines, outputs verified")
  else()
    message(FATAL_ERROR "ProbeVariants.cmake: unknown PV_MODE '${PV_MODE}'")
  endif()
  return()
endif()

include_guard(GLOBAL)
set(_PROBE_VARIANTS_FILE "${CMAKE_CURRENT_LIST_FILE}")

# Where the probekit commands are: "<dir>/probe-" prefix plus target deps.
function(_probe_variants_tools out_prefix out_deps)
  if(TARGET probe)
    set(${out_prefix} "$<TARGET_FILE_DIR:probe>/probe-" PARENT_SCOPE)
    set(${out_deps} probe PARENT_SCOPE)
    return()
  endif()
  find_program(PROBEKIT_INJECT probe-inject)
  if(NOT PROBEKIT_INJECT)
    message(FATAL_ERROR "probe_add_variants: probe-inject not found; install probekit or set PROBEKIT_INJECT")
  endif()
  get_filename_component(dir "${PROBEKIT_INJECT}" DIRECTORY)
  set(${out_prefix} "${dir}/probe-" PARENT_SCOPE)
  set(${out_deps} "${PROBEKIT_INJECT}" PARENT_SCOPE)
endfunction()

# One target (executable or object library) built from a generated kernel.
function(_probe_variants_setup tgt srcdir includes libs flags)
  target_include_directories(${tgt} PRIVATE ${srcdir} ${includes})
  target_link_libraries(${tgt} PRIVATE ${libs})
  target_compile_options(${tgt} PRIVATE ${flags})
endfunction()

function(probe_add_variants)
  cmake_parse_arguments(PV "" "TARGET;SOURCE;EXPECT_LINES;TEST_PREFIX"
    "PROBES;HARNESS;LIBS;INCLUDES;FLAGS;RUN_ARGS" ${ARGN})
  foreach(req TARGET SOURCE PROBES HARNESS)
    if(NOT PV_${req})
      message(FATAL_ERROR "probe_add_variants: ${req} is required")
    endif()
  endforeach()
  if(NOT PV_TEST_PREFIX)
    set(PV_TEST_PREFIX "kernel/${PV_TARGET}")
  endif()
  get_filename_component(src "${PV_SOURCE}" ABSOLUTE)
  get_filename_component(srcdir "${src}" DIRECTORY)
  get_filename_component(base "${src}" NAME)
  set(gen "${CMAKE_CURRENT_BINARY_DIR}/${PV_TARGET}_variants")
  _probe_variants_tools(tool tool_deps)

  # The harness once, shared by every variant.
  add_library(${PV_TARGET}_harness OBJECT ${PV_HARNESS})
  _probe_variants_setup(${PV_TARGET}_harness "${srcdir}" "${PV_INCLUDES}" "${PV_LIBS}" "${PV_FLAGS}")

  # Production: probe-strip.
  add_custom_command(OUTPUT ${gen}/prod/${base}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${gen}/prod
    COMMAND ${tool}strip ${src} -o ${gen}/prod/${base}
    DEPENDS ${src} ${tool_deps}
    COMMENT "probe-strip ${base} -> ${PV_TARGET} production source" VERBATIM)
  add_executable(${PV_TARGET}_prod ${gen}/prod/${base} $<TARGET_OBJECTS:${PV_TARGET}_harness>)
  _probe_variants_setup(${PV_TARGET}_prod "${srcdir}" "${PV_INCLUDES}" "${PV_LIBS}" "${PV_FLAGS}")

  # Residue check: the stripped source and the clean source (every probe
  # off) compiled alike, without debug info, sanitizers or their paths.
  list(GET PV_PROBES 0 first_probe)
  foreach(kind clean prod probe)
    if(kind STREQUAL "clean")
      set(file ${src})
      set(dir ${srcdir})
    elseif(kind STREQUAL "prod")
      set(file ${gen}/prod/${base})
      set(dir ${gen}/prod)
    else()
      set(file ${gen}/probe_${first_probe}/${base})
      set(dir ${gen}/probe_${first_probe})
    endif()
    add_library(${PV_TARGET}_${kind}_obj OBJECT ${file})
    _probe_variants_setup(${PV_TARGET}_${kind}_obj "${srcdir}" "${PV_INCLUDES}" "${PV_LIBS}" "${PV_FLAGS}")
    target_compile_options(${PV_TARGET}_${kind}_obj PRIVATE -g0 -fno-sanitize=all -ffile-prefix-map=${dir}=.)
  endforeach()

  # One instrumented build per probe: probe-inject --probe P.
  foreach(p IN LISTS PV_PROBES)
    add_custom_command(OUTPUT ${gen}/probe_${p}/${base}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${gen}/probe_${p}
      COMMAND ${tool}inject --probe ${p} ${src} -o ${gen}/probe_${p}/${base}
      DEPENDS ${src} ${tool_deps}
      COMMENT "probe-inject --probe ${p} ${base}" VERBATIM)
    add_executable(${PV_TARGET}_probe_${p} ${gen}/probe_${p}/${base} $<TARGET_OBJECTS:${PV_TARGET}_harness>)
    _probe_variants_setup(${PV_TARGET}_probe_${p} "${srcdir}" "${PV_INCLUDES}" "${PV_LIBS}" "${PV_FLAGS}")
    add_test(NAME ${PV_TEST_PREFIX}/probe/${p}
      COMMAND ${CMAKE_COMMAND} -DPV_MODE=run -DPV_EXE=$<TARGET_FILE:${PV_TARGET}_probe_${p}>
              "-DPV_ARGS=${PV_RUN_ARGS}" -DPV_PROBE=${p} -DPV_EXPECT_LINES=${PV_EXPECT_LINES}
              -P ${_PROBE_VARIANTS_FILE})
  endforeach()

  add_test(NAME ${PV_TEST_PREFIX}/probe-list
    COMMAND ${CMAKE_COMMAND} -DPV_MODE=list -DPV_TOOL=${tool}list -DPV_SOURCE=${src}
            "-DPV_PROBES=${PV_PROBES}" -P ${_PROBE_VARIANTS_FILE})
  add_test(NAME ${PV_TEST_PREFIX}/prod-check COMMAND ${tool}check --strict ${gen}/prod/${base})
  add_test(NAME ${PV_TEST_PREFIX}/prod-residue
    COMMAND ${CMAKE_COMMAND} -DPV_MODE=compare -DPV_A=$<TARGET_OBJECTS:${PV_TARGET}_clean_obj>
            -DPV_B=$<TARGET_OBJECTS:${PV_TARGET}_prod_obj> -P ${_PROBE_VARIANTS_FILE})
  add_test(NAME ${PV_TEST_PREFIX}/residue-detects
    COMMAND ${CMAKE_COMMAND} -DPV_MODE=compare -DPV_EXPECT_DIFFERENT=1
            -DPV_A=$<TARGET_OBJECTS:${PV_TARGET}_clean_obj>
            -DPV_B=$<TARGET_OBJECTS:${PV_TARGET}_probe_obj> -P ${_PROBE_VARIANTS_FILE})
  add_test(NAME ${PV_TEST_PREFIX}/prod-run
    COMMAND ${CMAKE_COMMAND} -DPV_MODE=run -DPV_EXE=$<TARGET_FILE:${PV_TARGET}_prod>
            "-DPV_ARGS=${PV_RUN_ARGS}" -DPV_PROBE= -P ${_PROBE_VARIANTS_FILE})
endfunction()
