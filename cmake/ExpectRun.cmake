# ExpectRun.cmake - a ctest command that checks both the exit code and the
# output, which PASS_REGULAR_EXPRESSION alone cannot (it ignores the exit code):
#   cmake -DER_EXIT=N "-DER_REGEX=RE" "-DER_CMD=PROGRAM;ARG;..." -P ExpectRun.cmake
# Fails when the exit code is not N or the output (stdout and stderr) does not
# match RE; prints the output either way.
if(NOT DEFINED ER_EXIT OR NOT DEFINED ER_REGEX OR NOT ER_CMD)
  message(FATAL_ERROR "ExpectRun.cmake: give ER_EXIT, ER_REGEX and ER_CMD")
endif()
execute_process(COMMAND ${ER_CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT "${rc}" STREQUAL "${ER_EXIT}")
  message(FATAL_ERROR "exit ${rc}, expected ${ER_EXIT}: ${ER_CMD}")
endif()
if(NOT "${out}${err}" MATCHES "${ER_REGEX}")
  message(FATAL_ERROR "the output does not match '${ER_REGEX}'")
endif()
