# SPDX-License-Identifier: GPL-3.0-or-later
# Writes the man pages of one program from its own --help and --version (help2man), one page per
# command as git does: railyard-cli(1), railyard-cli-plan(1), railyard-cli-live-check(1), ...
# Nothing of the help text is copied by hand; INCLUDE only adds sections --help has no place for
# (FILES of the packaged agent).
#
#   cmake -DHELP2MAN=/usr/bin/help2man -DPROGRAM=/path/bin/railyard-cli -DNAME=railyard-cli
#         -DOUT_DIR=dir [-DINCLUDE=file.h2m] [-DSEE_ALSO="railyard-agent(1);..."]
#         [-DENVIRONMENT="QT_QPA_PLATFORM=offscreen;..."] -P help2man.cmake
#
# Writes OUT_DIR/man1/<page>.1.gz (gzip -9n) and removes pages of commands that no longer exist.
cmake_minimum_required(VERSION 3.25)

foreach(var HELP2MAN PROGRAM NAME OUT_DIR)
    if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
        message(FATAL_ERROR "help2man.cmake: ${var} is not set")
    endif()
endforeach()

set(wrappers "${OUT_DIR}/wrappers")
set(pages "${OUT_DIR}/man1")
file(REMOVE_RECURSE "${wrappers}" "${pages}")
file(MAKE_DIRECTORY "${wrappers}" "${pages}")

# The program runs under its own name (exec -a), so usage lines never show a build path.
set(exports "")
foreach(assignment IN LISTS ENVIRONMENT)
    string(APPEND exports "export ${assignment}\n")
endforeach()

# A wrapper that runs `PROGRAM words...`, named like the page (railyard-cli-live-check).
function(railyard_man_wrapper words out_name out_path)
    string(JOIN "-" page ${NAME} ${words})
    string(JOIN " " args ${words})
    set(path "${wrappers}/${page}")
    file(WRITE "${path}" "#!/bin/bash\n${exports}exec -a ${NAME} \"${PROGRAM}\" ${args} \"$@\"\n")
    file(CHMOD "${path}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    set(${out_name} "${page}" PARENT_SCOPE)
    set(${out_path} "${path}" PARENT_SCOPE)
endfunction()

# The one-line summary: the first line of --help that is not the usage line, without a
# leading "program: " and a final full stop.
function(railyard_man_summary help out)
    string(REPLACE "\n" ";" lines "${help}")
    foreach(line IN LISTS lines)
        string(STRIP "${line}" line)
        if(line STREQUAL "" OR line MATCHES "^Usage:")
            continue()
        endif()
        string(REGEX REPLACE "^[A-Za-z0-9_.-]+: " "" line "${line}")
        string(REGEX REPLACE "\\.$" "" line "${line}")
        set(${out} "${line}" PARENT_SCOPE)
        return()
    endforeach()
    message(FATAL_ERROR "help2man.cmake: ${NAME}: --help has no description line")
endfunction()

# The commands listed under "Subcommands:" (CLI11's layout).
function(railyard_man_subcommands help out)
    set(found "")
    set(inside FALSE)
    string(REPLACE "\n" ";" lines "${help}")
    foreach(line IN LISTS lines)
        if(line MATCHES "^Subcommands:")
            set(inside TRUE)
        elseif(inside AND line MATCHES "^  ([a-z][a-z0-9-]*)( |$)")
            list(APPEND found "${CMAKE_MATCH_1}")
        elseif(inside AND NOT line MATCHES "^ ")
            set(inside FALSE)
        endif()
    endforeach()
    set(${out} "${found}" PARENT_SCOPE)
endfunction()

railyard_man_wrapper("" top_page top_wrapper)
execute_process(COMMAND "${top_wrapper}" --version OUTPUT_VARIABLE version_text RESULT_VARIABLE rc ERROR_QUIET)
string(REGEX MATCH "[^ \t\n]+[ \t\n]*$" version "${version_text}")
string(STRIP "${version}" version)
if(NOT rc EQUAL 0 OR version STREQUAL "")
    message(FATAL_ERROR "help2man.cmake: ${PROGRAM} --version failed (${rc}): ${version_text}")
endif()

# One page for `NAME words...`, then one for each of its subcommands.
function(railyard_man_page words parent)
    railyard_man_wrapper("${words}" page wrapper)
    execute_process(COMMAND "${wrapper}" --help OUTPUT_VARIABLE help RESULT_VARIABLE rc ERROR_QUIET)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "help2man.cmake: ${page}: --help exited with ${rc}")
    endif()
    railyard_man_summary("${help}" summary)
    railyard_man_subcommands("${help}" subcommands)

    set(see_also "")
    if(NOT parent STREQUAL "")
        list(APPEND see_also "${parent}(1)")
    endif()
    foreach(sub IN LISTS subcommands)
        list(APPEND see_also "${page}-${sub}(1)")
    endforeach()
    if(parent STREQUAL "")
        list(APPEND see_also ${SEE_ALSO})
    endif()
    set(include "${wrappers}/${page}.h2m")
    set(text "")
    if(parent STREQUAL "" AND DEFINED INCLUDE AND NOT INCLUDE STREQUAL "")
        file(READ "${INCLUDE}" text)
        string(APPEND text "\n")
    endif()
    if(see_also)
        list(TRANSFORM see_also REPLACE "^(.*)\\(1\\)$" ".BR \\1 (1)")
        list(JOIN see_also ",\n" refs)
        string(APPEND text "[SEE ALSO]\n${refs}\n")
    endif()
    set(include_option "")
    if(NOT text STREQUAL "")
        file(WRITE "${include}" "${text}")
        set(include_option "--include=${include}")
    endif()

    execute_process(
        COMMAND "${HELP2MAN}" --no-info --locale=C.UTF-8 --section=1 "--name=${summary}"
            "--version-string=${version}" ${include_option} "--output=${pages}/${page}.1" "${wrapper}"
        RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "help2man.cmake: help2man failed on ${page} (${rc})")
    endif()
    execute_process(COMMAND gzip -9nf "${pages}/${page}.1" RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "help2man.cmake: gzip failed on ${page}.1")
    endif()

    foreach(sub IN LISTS subcommands)
        set(sub_words ${words} ${sub})
        railyard_man_page("${sub_words}" "${page}")
    endforeach()
endfunction()

railyard_man_page("" "")
