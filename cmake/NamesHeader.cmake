# Run as a script: cmake -DIN=rules/names.ini -DOUT=names.h -P NamesHeader.cmake
# Writes one C string macro per key of rules/names.ini, PK_NAME_SECTION_KEY,
# and PK_NAME_SECTION_ALL listing a section's macros in order, so the tool
# spells the names it writes only there. A {prefix} at the start
# of a value and a {name} or {event} at its end are left out (the tool puts
# the prefix and the name around it): "{prefix}slot" -> "slot",
# "probeStart_{name}" -> "probeStart_".
file(STRINGS "${IN}" lines)
set(body "/* names.h - generated from rules/names.ini by cmake/NamesHeader.cmake; do not edit */\n")
string(APPEND body "#ifndef PK_NAMES_H\n#define PK_NAMES_H\n")
set(section "")
set(all "")
foreach(l IN LISTS lines)
  if(l MATCHES "^[ \t]*[;#]" OR l MATCHES "^[ \t]*$")
    continue()
  elseif(l MATCHES "^\\[([a-z_]+)\\][ \t]*$")
    string(TOUPPER "${CMAKE_MATCH_1}" section)
    list(APPEND all "${section}")
  elseif(l MATCHES "^([a-z_0-9]+)[ \t]*=[ \t]*(.*[^ \t])[ \t]*$")
    string(TOUPPER "${CMAKE_MATCH_1}" key)
    set(v "${CMAKE_MATCH_2}")
    string(REGEX REPLACE "^\\{prefix\\}" "" v "${v}")
    string(REGEX REPLACE "\\{(name|event)\\}$" "" v "${v}")
    if(v MATCHES "[\"\\\\{}%]" OR section STREQUAL "")
      message(FATAL_ERROR "${IN}: '${l}': a name holds no quote, backslash or other {placeholder}")
    endif()
    string(APPEND body "#define PK_NAME_${section}_${key} \"${v}\"\n")
    list(APPEND keys_${section} "PK_NAME_${section}_${key}")
  else()
    message(FATAL_ERROR "${IN}: not a '[section]' or 'key = value' line: '${l}'")
  endif()
endforeach()
# PK_NAME_SECTION_ALL: every value of a section, in order, for a table
foreach(sec IN LISTS all)
  string(REPLACE ";" ", " list "${keys_${sec}}")
  string(APPEND body "#define PK_NAME_${sec}_ALL ${list}\n")
endforeach()
string(APPEND body "#endif\n")
file(WRITE "${OUT}.tmp" "${body}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
